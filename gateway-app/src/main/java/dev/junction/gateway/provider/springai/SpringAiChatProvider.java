package dev.junction.gateway.provider.springai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.requestid.RequestId;
import dev.junction.openai.ChatCompletion;
import dev.junction.openai.ChatCompletionChunk;
import dev.junction.openai.CompletionUsage;
import dev.junction.openai.ToolCall;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Any Spring AI {@link ChatModel} behind the OpenAI shape: requests are translated to a
 * {@link Prompt}, answers and streams back to {@code chat.completion} and
 * {@code chat.completion.chunk} JSON. Spring AI's blocking call runs on the bounded
 * elastic scheduler, never on an event loop. Provider-specific failures are translated by
 * the function given for the provider; a request the model cannot take is the client's
 * error (400), never the provider's. Embeddings are served by the provider's Spring AI
 * {@link EmbeddingModel}, when it has one.
 */
public final class SpringAiChatProvider implements ChatProvider {

	private static final Logger logger = LoggerFactory.getLogger(SpringAiChatProvider.class);

	private final String name;

	private final ProviderType type;

	private final Function<String, ChatModel> models;

	private final int defaultMaxTokens;

	private final Duration timeout;

	private final List<String> modelNames;

	private final ObjectMapper mapper;

	private final BiFunction<Throwable, @Nullable String, GatewayException> errors;

	private final ProviderOptions options;

	private final @Nullable SpringAiEmbeddings embeddings;

	private final AtomicInteger ids = new AtomicInteger();

	/**
	 * @param name the provider's configured name
	 * @param type the provider type, for metrics
	 * @param models the model to use for an upstream key (null when the provider has
	 * none)
	 * @param defaultMaxTokens {@code max_tokens} when the request has none
	 * @param timeout the longest a call may take; for streams, the longest wait for a
	 * chunk
	 * @param modelNames models listed in {@code GET /v1/models}
	 * @param mapper JSON
	 * @param errors translates the provider's exceptions, cutting the call's key (given)
	 * out of them
	 * @param options what the model takes beyond Spring AI's portable options
	 * @param embeddingModel the model that serves embeddings, or null when the provider
	 * has none
	 */
	public SpringAiChatProvider(String name, ProviderType type, Function<String, ChatModel> models,
			int defaultMaxTokens, Duration timeout, List<String> modelNames, ObjectMapper mapper,
			BiFunction<Throwable, @Nullable String, GatewayException> errors, ProviderOptions options,
			@Nullable EmbeddingModel embeddingModel) {
		this.name = name;
		this.type = type;
		this.models = models;
		this.defaultMaxTokens = defaultMaxTokens;
		this.timeout = timeout;
		this.modelNames = List.copyOf(modelNames);
		this.mapper = mapper;
		this.errors = errors;
		this.options = options;
		this.embeddings = (embeddingModel != null) ? new SpringAiEmbeddings(name, embeddingModel, timeout, mapper)
				: null;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public ProviderType type() {
		return this.type;
	}

	@Override
	public List<String> models() {
		return this.modelNames;
	}

	@Override
	public boolean speaks(ClientApi api) {
		return api == ClientApi.EMBEDDINGS && this.embeddings != null;
	}

	@Override
	public Mono<ChatResult> complete(ProviderRequest request) {
		if (request.api() == ClientApi.EMBEDDINGS && this.embeddings != null) {
			return this.embeddings.embed(request);
		}
		ChatModel model = model(request);
		return Mono.fromSupplier(() -> prompt(request, model))
			.flatMap((prompt) -> Mono.fromCallable(() -> model.call(prompt))
				.subscribeOn(Schedulers.boundedElastic())
				.timeout(this.timeout))
			.map((response) -> toResult(request, response))
			.onErrorMap((error) -> translate(error, request));
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		return Flux.defer(() -> {
			ChatModel model = model(request);
			Prompt prompt = prompt(request, model);
			AtomicReference<String> finish = new AtomicReference<>();
			AtomicReference<Usage> usage = new AtomicReference<>(Usage.NONE);
			AtomicInteger toolIndex = new AtomicInteger();
			AtomicBoolean hasTools = new AtomicBoolean();
			ChatCompletionChunk.Head head = new ChatCompletionChunk.Head(nextId(), System.currentTimeMillis() / 1000,
					request.model(), null, null, false);
			ChatChunk first = chunk(head, ChatCompletionChunk.Delta.START, null);
			Flux<ChatChunk> body = model.stream(prompt)
				.timeout(Mono.delay(this.timeout), (response) -> Mono.delay(this.timeout))
				.concatMapIterable((response) -> {
					Usage reported = usage(response.getMetadata());
					if (reported != Usage.NONE) {
						usage.set(reported);
					}
					List<ChatChunk> chunks = new ArrayList<>(2);
					for (Generation generation : response.getResults()) {
						String reason = generation.getMetadata().getFinishReason();
						if (reason != null && !reason.isBlank()) {
							finish.set(reason);
						}
						AssistantMessage output = generation.getOutput();
						String text = output.getText();
						if (text != null && !text.isEmpty()) {
							chunks.add(chunk(head, ChatCompletionChunk.Delta.content(text), null));
						}
						if (output.hasToolCalls()) {
							hasTools.set(true);
							for (AssistantMessage.ToolCall call : output.getToolCalls()) {
								chunks.add(chunk(head, ChatCompletionChunk.Delta.toolCalls(List.of(ToolCall
									.first(toolIndex.getAndIncrement(), call.id(), call.name(), arguments(call)))),
										null));
							}
						}
					}
					return chunks;
				});
			Flux<ChatChunk> tail = Flux.defer(() -> {
				String reason = finishReason(finish.get(), hasTools.get());
				ChatChunk last = chunk(head, ChatCompletionChunk.Delta.END, reason);
				ChatCompletionChunk usageChunk = ChatCompletionChunk.usage(head, wireUsage(usage.get()));
				return Flux.just(last, new ChatChunk(this.mapper.writeValueAsString(usageChunk), usage.get(), true));
			});
			return Flux.concat(Flux.just(first), body, tail);
		}).onErrorMap((error) -> translate(error, request));
	}

	private Prompt prompt(ProviderRequest request, ChatModel model) {
		return OpenAiToPrompt.translate(this.name, request, model.getOptions(), this.defaultMaxTokens, this.options,
				this.mapper);
	}

	private ChatResult toResult(ProviderRequest request, ChatResponse response) {
		List<ChatCompletion.Choice> choices = new ArrayList<>();
		List<Generation> generations = response.getResults();
		for (int i = 0; i < generations.size(); i++) {
			Generation generation = generations.get(i);
			AssistantMessage output = generation.getOutput();
			String text = output.getText();
			List<ToolCall> calls = output.hasToolCalls() ? output.getToolCalls()
				.stream()
				.map((call) -> ToolCall.of(call.id(), call.name(), arguments(call)))
				.toList() : null;
			choices.add(new ChatCompletion.Choice(i,
					ChatCompletion.Message.assistant((text != null && !text.isEmpty()) ? text : null, calls),
					finishReason(generation.getMetadata().getFinishReason(), output.hasToolCalls())));
		}
		Usage usage = usage(response.getMetadata());
		ChatCompletion completion = new ChatCompletion(nextId(), System.currentTimeMillis() / 1000, request.model(),
				choices, wireUsage(usage), null);
		return new ChatResult(this.mapper.writeValueAsBytes(completion), usage, completion.finishReason(),
				request.model(), completion);
	}

	private ChatChunk chunk(ChatCompletionChunk.Head head, ChatCompletionChunk.Delta delta,
			@Nullable String finishReason) {
		return ChatChunk.of(this.mapper
			.writeValueAsString(ChatCompletionChunk.of(head, new ChatCompletionChunk.Choice(0, delta, finishReason))));
	}

	private static String arguments(AssistantMessage.ToolCall call) {
		return (call.arguments() != null && !call.arguments().isBlank()) ? call.arguments() : "{}";
	}

	private static CompletionUsage wireUsage(Usage usage) {
		return CompletionUsage.of(usage.promptTokens(), usage.completionTokens());
	}

	private static Usage usage(@Nullable ChatResponseMetadata metadata) {
		if (metadata == null || metadata.getUsage() == null) {
			return Usage.NONE;
		}
		org.springframework.ai.chat.metadata.Usage usage = metadata.getUsage();
		long prompt = (usage.getPromptTokens() != null) ? usage.getPromptTokens() : 0;
		long completion = (usage.getCompletionTokens() != null) ? usage.getCompletionTokens() : 0;
		return (prompt == 0 && completion == 0) ? Usage.NONE : new Usage(prompt, completion);
	}

	/**
	 * Maps provider finish reasons (Anthropic's end_turn, max_tokens, tool_use...) to
	 * OpenAI's.
	 */
	static String finishReason(@Nullable String reason, boolean toolCalls) {
		if (toolCalls) {
			return "tool_calls";
		}
		if (reason == null) {
			return "stop";
		}
		return switch (reason.toLowerCase(Locale.ROOT)) {
			case "max_tokens", "length" -> "length";
			case "tool_use", "tool_calls" -> "tool_calls";
			case "content_filter", "refusal", "safety" -> "content_filter";
			default -> "stop";
		};
	}

	private String nextId() {
		return "chatcmpl-" + this.name + "-" + Long.toHexString(System.nanoTime()) + "-" + this.ids.incrementAndGet();
	}

	/**
	 * The model holding the call's key; a caller's own key goes with the call, on the
	 * first model.
	 */
	private ChatModel model(ProviderRequest request) {
		return this.models.apply(request.callerKey() ? null : request.apiKey());
	}

	private Throwable translate(Throwable error, ProviderRequest request) {
		if (error instanceof GatewayException) {
			return error;
		}
		if (error instanceof TimeoutException) {
			return UpstreamException.timeout(this.name, this.timeout);
		}
		GatewayException translated = this.errors.apply(error, request.apiKey());
		if (translated instanceof InvalidRequestException) {
			logger.atWarn()
				.setMessage("Provider '{}' could not take a request: {}")
				.addArgument(this.name)
				.addArgument(error::toString)
				.addKeyValue(RequestId.LOG_KEY, request.requestId())
				.log();
		}
		return translated;
	}

}
