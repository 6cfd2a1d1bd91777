package dev.junction.gateway.error;

import dev.junction.gateway.requestid.RequestId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Answers every failure that escapes a handler in OpenAI error JSON (Anthropic's on the
 * Messages API), never with a stack trace or a whitelabel page. Unexpected failures are
 * logged with their stack trace; a client that went away (an aborted upload) is nobody's
 * fault and is logged at DEBUG only.
 */
@Order(-2)
public final class OpenAiErrorWebExceptionHandler implements WebExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(OpenAiErrorWebExceptionHandler.class);

	/**
	 * The status recorded for a request whose client went away before its answer, as
	 * nginx has it.
	 */
	static final int CLIENT_CLOSED_REQUEST = 499;

	private final OpenAiErrors errors;

	private final ErrorBodies bodies;

	public OpenAiErrorWebExceptionHandler(OpenAiErrors errors, ErrorBodies bodies) {
		this.errors = errors;
		this.bodies = bodies;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.error(failure);
		}
		if (OpenAiErrors.isClientGone(failure)) {
			// Nobody is left to answer, and nothing went wrong here: 499 for the metrics,
			// as nginx counts it.
			logger.atDebug()
				.setMessage("Client went away during {} {}: {}")
				.addArgument(exchange.getRequest().getMethod())
				.addArgument(exchange.getRequest().getPath())
				.addArgument(failure)
				.addKeyValue(RequestId.LOG_KEY, RequestId.of(exchange))
				.log();
			response.setStatusCode(HttpStatusCode.valueOf(CLIENT_CLOSED_REQUEST));
			return Mono.empty();
		}
		GatewayException error = this.errors.toGatewayException(failure);
		if (error instanceof InternalGatewayException) {
			logger.atError()
				.setMessage("Unexpected failure on {} {}")
				.addArgument(exchange.getRequest().getMethod())
				.addArgument(exchange.getRequest().getPath())
				.addKeyValue(RequestId.LOG_KEY, RequestId.of(exchange))
				.setCause(failure)
				.log();
		}
		response.setStatusCode(HttpStatus.valueOf(error.status()));
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		this.errors.headers(error).forEach(response.getHeaders()::set);
		if (failure instanceof ErrorResponse framework) {
			// Allow on 405, and whatever else the framework says goes with its error.
			framework.getHeaders().forEach((name, values) -> response.getHeaders().put(name, values));
		}
		if (error.status() == 413) {
			// The refused body may still be arriving: do not read it as the next request.
			response.getHeaders().set("Connection", "close");
		}
		byte[] json = this.bodies.body(exchange.getRequest().getPath().value(), error, RequestId.of(exchange));
		DataBuffer body = response.bufferFactory().wrap(json);
		return response.writeWith(Mono.just(body));
	}

}
