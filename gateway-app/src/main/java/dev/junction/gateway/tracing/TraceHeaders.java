package dev.junction.gateway.tracing;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The W3C trace context headers ({@code traceparent}, and {@code tracestate} or
 * {@code baggage} when present) that carry one request's trace to the services it calls.
 *
 * @param headers header names and values, as the propagator wrote them
 */
public record TraceHeaders(Map<String, String> headers) {

	/** No trace to pass on. */
	public static final TraceHeaders NONE = new TraceHeaders(Map.of());

	/** Calls {@code header} with each header's name and value. */
	public void forEach(BiConsumer<String, String> header) {
		this.headers.forEach(header);
	}

}
