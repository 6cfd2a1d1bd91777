package dev.junction.gateway.responses;

import java.util.List;

import dev.junction.gateway.chat.SseEvent;
import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ClientApi;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * The Responses events of one stream: those of a provider that speaks the Responses API
 * relayed as they came, chat completion chunks translated. A stream that fails after it
 * started ends with an {@code error} event numbered after the last event sent. One
 * instance per stream.
 */
final class ResponsesEvents {

	private final ObjectMapper mapper;

	private final ChatToResponsesStream translator;

	private @Nullable String lastRelayed;

	ResponsesEvents(ObjectMapper mapper, ChatToResponsesStream translator) {
		this.mapper = mapper;
		this.translator = translator;
	}

	/** The events one output of the provider makes. */
	List<SseEvent> next(ChatChunk chunk) {
		if (chunk.api() != ClientApi.RESPONSES) {
			return this.translator.next(chunk.json());
		}
		this.lastRelayed = chunk.json();
		String name = (chunk.event() != null && !chunk.event().isEmpty()) ? chunk.event() : "message";
		return List.of(new SseEvent(name, chunk.json()));
	}

	/** The events that end the stream once the provider's has completed. */
	List<SseEvent> end() {
		return (this.lastRelayed != null) ? List.of() : this.translator.end();
	}

	/** The {@code error} event that ends a stream whose upstream failed. */
	SseEvent error(GatewayException failure) {
		String last = this.lastRelayed;
		if (last != null) {
			this.translator.numberFrom(sequenceAfter(last));
		}
		return this.translator.error(failure);
	}

	private int sequenceAfter(String event) {
		try {
			return this.mapper.readTree(event).path("sequence_number").asInt(-1) + 1;
		}
		catch (JacksonException ex) {
			return 0;
		}
	}

}
