package dev.junction.gateway.chat;

import java.nio.charset.StandardCharsets;

import dev.junction.gateway.metrics.ServerTiming;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * {@code GET} and {@code HEAD /health}, a load balancer's check, answered before the
 * application's filters and dispatch: what it costs is the server's own work. It still
 * carries the request id (set around it) and {@code Server-Timing}; a request with an
 * {@code Origin} header goes the whole way, where CORS answers it, and so does any other
 * method, which is answered 405.
 */
public final class HealthCheck implements HttpHandler {

	/** The path answered here. */
	public static final String PATH = "/health";

	static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.US_ASCII);

	private final HttpHandler delegate;

	private HealthCheck(HttpHandler delegate) {
		this.delegate = delegate;
	}

	/** The decorator that answers health checks in front of the application's handler. */
	public static HttpHandlerDecoratorFactory decorator() {
		return HealthCheck::new;
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		HttpMethod method = request.getMethod();
		if ((method != HttpMethod.GET && method != HttpMethod.HEAD) || !PATH.equals(request.getPath().value())
				|| request.getHeaders().containsHeader(HttpHeaders.ORIGIN)) {
			return this.delegate.handle(request, response);
		}
		long start = System.nanoTime();
		response.setStatusCode(HttpStatus.OK);
		HttpHeaders headers = response.getHeaders();
		headers.setContentType(MediaType.APPLICATION_JSON);
		headers.setContentLength(UP.length);
		headers.set(ServerTiming.HEADER, ServerTiming.of(System.nanoTime() - start, 0));
		if (method == HttpMethod.HEAD) {
			return response.setComplete();
		}
		return response.writeWith(Mono.just(response.bufferFactory().wrap(UP)));
	}

}
