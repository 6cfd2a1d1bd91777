package dev.junction.gateway.pipeline;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Route;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in for the rest of the pipeline: answers as told and records every attempt it
 * gets.
 */
public final class FakeNext<T extends ChatOutput> implements ChatStage.Next<T> {

	private static final JsonMapper MAPPER = new JsonMapper();

	private final ChatMode<T> mode;

	private final Function<Attempt, Publisher<T>> answer;

	private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

	private FakeNext(ChatMode<T> mode, Function<Attempt, Publisher<T>> answer) {
		this.mode = mode;
		this.answer = answer;
	}

	public static FakeNext<ChatResult> complete(Function<Attempt, Publisher<ChatResult>> answer) {
		return new FakeNext<>(ChatMode.COMPLETE, answer);
	}

	public static FakeNext<ChatChunk> stream(Function<Attempt, Publisher<ChatChunk>> answer) {
		return new FakeNext<>(ChatMode.STREAM, answer);
	}

	@Override
	public Flux<T> apply(ChatExchange exchange, Attempt attempt) {
		return Flux.defer(() -> {
			this.attempts.add(attempt);
			return this.answer.apply(attempt);
		});
	}

	@Override
	public ChatMode<T> mode() {
		return this.mode;
	}

	/** The attempts subscribed to, in order. */
	public List<Attempt> attempts() {
		return this.attempts;
	}

	/** An exchange for a request body. */
	public static ChatExchange exchange(String json) {
		return new ChatExchange(ChatRequest.parse(json.getBytes(), MAPPER), "client", "chat", System.nanoTime(),
				"req-1");
	}

	/** An exchange routed as the routing stage would route it. */
	public static ChatExchange routed(ChatExchange exchange, Route route) {
		exchange.route(route);
		return exchange;
	}

	public static ChatResult result(String content, Usage usage) {
		return new ChatResult(("{\"choices\":[{\"message\":{\"content\":\"" + content + "\"}}]}").getBytes(), usage,
				"stop", null);
	}

	public static ChatChunk chunk(String content) {
		return ChatChunk.of("{\"choices\":[{\"delta\":{\"content\":\"" + content + "\"}}]}");
	}

}
