package dev.junction.mock.requestid;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Echoes the caller's {@value #HEADER} in the response, so a test or a gateway can see
 * which request the emulator answered, and logs it (as {@code request.id}) at DEBUG.
 * Requests without one pass untouched.
 */
public final class RequestIdFilter implements HandlerFilterFunction<ServerResponse, ServerResponse> {

	/** The request id header. */
	public static final String HEADER = "X-Request-Id";

	private static final Logger logger = LoggerFactory.getLogger(RequestIdFilter.class);

	@Override
	public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
		String id = request.headers().firstHeader(HEADER);
		if (id != null) {
			request.exchange().getResponse().getHeaders().set(HEADER, id);
			logger.atDebug()
				.setMessage("{} {}")
				.addArgument(request::method)
				.addArgument(request::path)
				.addKeyValue("request.id", id)
				.log();
		}
		return next.handle(request);
	}

}
