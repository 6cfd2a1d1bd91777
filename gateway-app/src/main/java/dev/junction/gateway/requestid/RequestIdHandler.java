package dev.junction.gateway.requestid;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Wraps the whole HTTP handler, error handlers included: sets the {@link RequestId} in
 * the response's {@value RequestId#HEADER} header before anything else runs, and, when
 * the {@value #ACCESS_LOG} logger is at INFO, writes one access log line per request once
 * its response is complete (off by default: the gateway's overhead is measured in
 * microseconds). Reactor Netty's own access log
 * ({@code reactor.netty.http.server.AccessLog}, {@code server.netty}'s access log switch)
 * was weighed and does not serve here: it logs one formatted message under its own
 * logger, so the line could not carry the request id and the ECS fields
 * ({@code http.request.method}, {@code url.path}, {@code http.response.status_code},
 * {@code event.duration}) as key-value pairs that structured (JSON) logging writes as
 * fields.
 */
public final class RequestIdHandler implements HttpHandler {

	/** Name of the access log's logger. */
	public static final String ACCESS_LOG = "dev.junction.gateway.access";

	private static final Logger accessLog = LoggerFactory.getLogger(ACCESS_LOG);

	private final HttpHandler delegate;

	RequestIdHandler(HttpHandler delegate) {
		this.delegate = delegate;
	}

	/** The decorator that puts this handler in front of the application's. */
	public static HttpHandlerDecoratorFactory decorator() {
		return RequestIdHandler::new;
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		String id = RequestId.acceptOrTrace(request.getHeaders().getFirst(RequestId.HEADER),
				request.getHeaders().getFirst(RequestId.TRACEPARENT));
		response.getHeaders().set(RequestId.HEADER, id);
		if (!accessLog.isInfoEnabled()) {
			return this.delegate.handle(request, response);
		}
		long start = System.nanoTime();
		return this.delegate.handle(request, response).doFinally((signal) -> {
			HttpStatusCode status = response.getStatusCode();
			long micros = (System.nanoTime() - start) / 1000;
			accessLog.atInfo()
				.setMessage("{} {} {} {} us")
				.addArgument(request.getMethod())
				.addArgument(request.getPath().value())
				.addArgument((status != null) ? status.value() : 200)
				.addArgument(micros)
				.addKeyValue(RequestId.LOG_KEY, id)
				.addKeyValue("http.request.method", request.getMethod().name())
				.addKeyValue("url.path", request.getPath().value())
				.addKeyValue("http.response.status_code", (status != null) ? status.value() : 200)
				.addKeyValue("event.duration", micros * 1000)
				.log();
		});
	}

}
