package dev.junction.gateway.admission;

import dev.junction.gateway.chat.HealthCheck;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.ErrorBodies;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.metrics.ServerTiming;
import dev.junction.gateway.requestid.RequestId;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Sheds a request that admission refuses at once before the application sees it: the same
 * 503, {@code Retry-After} and OpenAI error JSON (Anthropic's on the Messages API) as
 * {@link AdmissionFilter} answers, counted in the same {@value AdmissionFilter#SHED}
 * counter, without the request observation, the filter chain and the error handlers,
 * which cost a shed request about as much as serving a small one. Past its capacity the
 * gateway spends on shedding what it does not spend on the requests it serves. The RPC
 * endpoints (refused in their own protocols), health checks, actuator and requests with
 * an {@code Origin} (whose answers need their CORS headers) go the whole way and are shed
 * by the filter.
 */
public final class AdmissionShedding implements HttpHandler {

	private final HttpHandler delegate;

	private final AdmissionFilter admission;

	private final OpenAiErrors errors;

	private final ErrorBodies bodies;

	private AdmissionShedding(HttpHandler delegate, AdmissionFilter admission, OpenAiErrors errors,
			ErrorBodies bodies) {
		this.delegate = delegate;
		this.admission = admission;
		this.errors = errors;
		this.bodies = bodies;
	}

	/** The decorator that sheds in front of the application, inside the request id's. */
	public static HttpHandlerDecoratorFactory decorator(AdmissionFilter admission, OpenAiErrors errors,
			ErrorBodies bodies) {
		return (delegate) -> new AdmissionShedding(delegate, admission, errors, bodies);
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		long start = System.nanoTime();
		String path = request.getPath().pathWithinApplication().value();
		if (!applies(path) || request.getHeaders().containsHeader(HttpHeaders.ORIGIN)) {
			return this.delegate.handle(request, response);
		}
		DeniedException refusal = this.admission.refusalAtOnce(request);
		if (refusal == null) {
			return this.delegate.handle(request, response);
		}
		HttpHeaders headers = response.getHeaders();
		String requestId = headers.getFirst(RequestId.HEADER);
		byte[] body = this.bodies.body(path, refusal, (requestId != null) ? requestId : RequestId.generate());
		response.setStatusCode(HttpStatus.valueOf(refusal.status()));
		headers.setContentType(MediaType.APPLICATION_JSON);
		this.errors.headers(refusal).forEach(headers::set);
		headers.setContentLength(body.length);
		headers.set(ServerTiming.HEADER, ServerTiming.of(System.nanoTime() - start, 0));
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
	}

	/**
	 * Whether a request to {@code path} is shed here when admission refuses it
	 * (actuator's never are: admission lets them through).
	 */
	static boolean applies(String path) {
		return !path.equals(HealthCheck.PATH) && !isRpc(path, "/rpc") && !isRpc(path, "/trpc");
	}

	private static boolean isRpc(String path, String endpoint) {
		return path.equals(endpoint) || path.startsWith(endpoint + "/");
	}

}
