package dev.junction.gateway.provider.openai;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.StreamEnd;
import dev.junction.gateway.provider.UpstreamFailures;
import dev.junction.gateway.provider.Usage;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.netty.ByteBufFlux;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The event stream of a Responses API call, each event passed on as the upstream sent it
 * and named by its {@code type}, up to the event that ends the response
 * ({@code response.completed}, {@code response.incomplete} or {@code response.failed}),
 * which carries the usage. An {@code error} event, or a body that ends before the last
 * event, is the upstream's failure; {@code response.failed} reaches the client as sent,
 * marked as a failed answer.
 */
final class ResponsesEventStream {

	/** The events that end a response. */
	static final Set<String> LAST = Set.of("response.completed", "response.incomplete", "response.failed");

	private final String provider;

	private final ObjectMapper mapper;

	private final @Nullable String apiKey;

	private boolean done;

	private ResponsesEventStream(String provider, ObjectMapper mapper, @Nullable String apiKey) {
		this.provider = provider;
		this.mapper = mapper;
		this.apiKey = apiKey;
	}

	static Flux<ChatChunk> of(ByteBufFlux content, String provider, ObjectMapper mapper, @Nullable String apiKey) {
		return Flux.defer(() -> {
			ResponsesEventStream events = new ResponsesEventStream(provider, mapper, apiKey);
			SseLineDecoder decoder = new SseLineDecoder();
			// Decode inside onNext: Reactor Netty releases each buffer once onNext
			// returns.
			Flux<ChatChunk> chunks = content.map((ByteBuf buffer) -> decoder.decode(buffer))
				.concatMapIterable((lines) -> lines)
				.filter((data) -> !"[DONE]".equals(data))
				.map(events::event);
			return StreamEnd.upTo(chunks, (chunk) -> events.done, true, () -> UpstreamException.connection(provider,
					"the stream ended before the response was completed", null));
		});
	}

	private ChatChunk event(String data) {
		JsonNode event;
		try {
			event = this.mapper.readTree(data.getBytes(StandardCharsets.UTF_8));
		}
		catch (JacksonException ex) {
			throw UpstreamException.invalidResponse(this.provider, "an event of the stream is not valid JSON");
		}
		String type = event.path("type").asString("");
		if (type.equals("error")) {
			JsonNode code = event.path("code");
			JsonNode param = event.path("param");
			throw UpstreamException.status(this.provider, 500, null,
					redact(code.isString() ? code.stringValue() : null),
					redact(param.isString() ? param.stringValue() : null),
					redact(event.path("message").asString("error in stream")), null);
		}
		Usage usage = null;
		if (LAST.contains(type)) {
			this.done = true;
			usage = Usage.fromResponses(event.path("response").get("usage"));
		}
		return new ChatChunk(data, usage, false, ClientApi.RESPONSES, type, type.equals("response.failed"));
	}

	private @Nullable String redact(@Nullable String text) {
		return UpstreamFailures.redact(text, this.apiKey);
	}

}
