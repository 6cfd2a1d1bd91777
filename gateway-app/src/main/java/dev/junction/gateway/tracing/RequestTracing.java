package dev.junction.gateway.tracing;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

/**
 * The trace of the HTTP request being served, found through the observation WebFlux keeps
 * in the Reactor context, so that it reaches the calls made for the request without
 * thread-local context propagation on the hot path.
 */
public final class RequestTracing {

	/** Tracing off: no headers, no observation. */
	public static final RequestTracing OFF = new RequestTracing(null);

	private final @Nullable Propagator propagator;

	public RequestTracing(@Nullable Propagator propagator) {
		this.propagator = propagator;
	}

	/**
	 * The observation of the request served in {@code context}, if it is being observed.
	 */
	public static @Nullable Observation observation(ContextView context) {
		Observation observation = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
		return (observation != null && !observation.isNoop()) ? observation : null;
	}

	/** The headers that continue the trace of the request served in {@code context}. */
	public TraceHeaders headers(ContextView context) {
		Propagator propagator = this.propagator;
		Observation observation = observation(context);
		if (propagator == null || observation == null) {
			return TraceHeaders.NONE;
		}
		TracingObservationHandler.TracingContext tracing = observation.getContextView()
			.get(TracingObservationHandler.TracingContext.class);
		Span span = (tracing != null) ? tracing.getSpan() : null;
		if (span == null) {
			return TraceHeaders.NONE;
		}
		Map<String, String> headers = new HashMap<>(4);
		propagator.inject(span.context(), headers, Map::put);
		return new TraceHeaders(Map.copyOf(headers));
	}

}
