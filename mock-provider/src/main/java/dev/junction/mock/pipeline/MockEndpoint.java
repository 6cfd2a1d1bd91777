package dev.junction.mock.pipeline;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.junction.mock.auth.ApiKeys;
import dev.junction.mock.behavior.Behavior;
import dev.junction.mock.behavior.BehaviorResolver;
import dev.junction.mock.behavior.InvalidMockHeaderException;
import dev.junction.mock.stats.MockStats;
import dev.junction.mock.stats.Outcome;
import dev.junction.mock.stats.Route;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The steps every emulated route shares: count the request, resolve its behaviour, reset
 * or stall when asked, read the body, wait the latency, check the key, inject an error
 * when asked or drawn, then let the {@link Responder} answer. A client that goes away
 * before the answer, during its upload included, is counted as cancelled; a body that
 * stops arriving for {@code junction.mock.http.read-timeout} is answered 408.
 */
public final class MockEndpoint implements HandlerFunction<ServerResponse> {

	private final Route route;

	private final Function<ServerRequest, ErrorFormat> errorFormats;

	private final Responder responder;

	private final BehaviorResolver behaviors;

	private final ApiKeys apiKeys;

	private final MockStats stats;

	private final int maxRequestBytes;

	private final Duration readTimeout;

	public MockEndpoint(Route route, Function<ServerRequest, ErrorFormat> errorFormats, Responder responder,
			BehaviorResolver behaviors, ApiKeys apiKeys, MockStats stats, int maxRequestBytes, Duration readTimeout) {
		this.route = route;
		this.errorFormats = errorFormats;
		this.responder = responder;
		this.behaviors = behaviors;
		this.apiKeys = apiKeys;
		this.stats = stats;
		this.maxRequestBytes = maxRequestBytes;
		this.readTimeout = readTimeout;
	}

	@Override
	public Mono<ServerResponse> handle(ServerRequest request) {
		HttpHeaders headers = request.headers().asHttpHeaders();
		String key = ApiKeys.presented(headers);
		String keySuffix = ApiKeys.suffix(key);
		Behavior behavior;
		try {
			behavior = behaviors.resolve(headers);
		}
		catch (InvalidMockHeaderException ex) {
			MockCall call = new MockCall(request, null, stats.track(route, keySuffix), keySuffix,
					errorFormats.apply(request));
			return call.error(MockError.badRequest(ex.getMessage(), null));
		}
		MockCall call = new MockCall(request, behavior, stats.track(route, keySuffix), keySuffix,
				errorFormats.apply(request));
		if (behavior.reset()) {
			return call.reset();
		}
		if (behavior.stall()) {
			return Mono.<ServerResponse>never().doOnCancel(() -> call.tracker().finish(Outcome.CANCELLED));
		}
		BodyReader reader = new BodyReader(request, maxRequestBytes, readTimeout);
		Mono<byte[]> body = reader.read();
		if (behavior.latencyMs() > 0) {
			body = body.delayElement(Duration.ofMillis(behavior.latencyMs()));
		}
		return body.flatMap((bytes) -> answer(call, key, bytes))
			.onErrorResume(DataBufferLimitException.class,
					(ex) -> call.error(new MockError(413, "Request body is larger than " + maxRequestBytes + " bytes",
							null, "request_too_large")))
			.onErrorResume(TimeoutException.class, (ex) -> timedOut(call, reader))
			.onErrorResume(BodyReader::clientWentAway, (ex) -> {
				call.tracker().finish(Outcome.CANCELLED);
				return Mono.empty();
			})
			.doOnCancel(() -> call.tracker().finish(Outcome.CANCELLED));
	}

	/**
	 * 408 for a body that stopped arriving; the connection is closed after it, the rest
	 * of the body unread.
	 */
	private Mono<ServerResponse> timedOut(MockCall call, BodyReader reader) {
		call.request().exchange().getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
		return call.error(new MockError(408, "The request body did not arrive in time: no bytes for "
				+ readTimeout.toMillis() + " ms (" + reader.progress() + ").", null, "request_timeout"));
	}

	private Mono<ServerResponse> answer(MockCall call, String key, byte[] body) {
		if (!apiKeys.accepts(key)) {
			return call
				.error(new MockError(401, (key != null) ? "Incorrect API key provided: ..." + ApiKeys.suffix(key) + "."
						: "No API key provided.", null, "invalid_api_key"));
		}
		if (call.behavior().failing()) {
			return call.error(MockError.injected(call.behavior().errorStatus()));
		}
		try {
			return responder.respond(call, body);
		}
		catch (MockError error) {
			return call.error(error);
		}
	}

}
