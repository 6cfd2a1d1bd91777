package dev.junction.messaging.web;

import java.util.List;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Turns every failure, from filters and handlers alike, into an
 * {@code application/problem+json} answer. Runs before Boot's whitelabel handler.
 */
@Component
@Order(-2)
public class ProblemExceptionHandler implements WebExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ProblemExceptionHandler.class);

	/** The status recorded (never sent) for a request whose client went away: nginx's 499. */
	static final int CLIENT_CLOSED_REQUEST = 499;

	private final JsonMapper jsonMapper;

	public ProblemExceptionHandler(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.error(ex);
		}
		String path = exchange.getRequest().getPath().value();
		if (path.startsWith("/actuator/")) {
			return Mono.error(ex);
		}
		if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
			// Nobody is left to answer: not the service's fault, and no error to log.
			logger.atDebug()
				.setMessage("Client went away during {}: {}")
				.addArgument(path)
				.addArgument(ex::toString)
				.addKeyValue(RequestId.LOG_KEY, RequestId.of(exchange))
				.log();
			response.setStatusCode(HttpStatusCode.valueOf(CLIENT_CLOSED_REQUEST));
			return Mono.empty();
		}
		Problem problem = toProblem(ex, path, RequestId.of(exchange));
		HttpHeaders headers = response.getHeaders();
		if (ex instanceof ErrorResponse errorResponse) {
			headers.addAll(errorResponse.getHeaders());
		}
		if (ex instanceof RateLimitedException limited) {
			headers.set(HttpHeaders.RETRY_AFTER, Long.toString(limited.retryAfterSeconds()));
		}
		response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
		headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		headers.remove(HttpHeaders.CONTENT_LENGTH);
		byte[] body = this.jsonMapper.writeValueAsBytes(problem);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	Problem toProblem(Throwable ex, String path, String requestId) {
		if (ex instanceof InvalidFieldException invalid) {
			return problem(invalid.type(), invalid.getMessage(), path, invalid.field(),
					List.of(new Problem.FieldError(invalid.field(), invalid.getMessage())));
		}
		if (ex instanceof ApiException api) {
			return problem(api.type(), api.getMessage(), path, null, null);
		}
		if (ex instanceof WebExchangeBindException bind) {
			List<Problem.FieldError> errors = bind.getFieldErrors()
				.stream()
				.map((error) -> new Problem.FieldError(error.getField(), error.getDefaultMessage()))
				.toList();
			Problem.FieldError first = errors.isEmpty() ? new Problem.FieldError(bind.getObjectName(), "invalid")
					: errors.get(0);
			return problem(ProblemType.INVALID_REQUEST, "Invalid '" + first.field() + "': " + first.message(), path,
					first.field(), errors);
		}
		if (ex instanceof ServerWebInputException input) {
			return inputProblem(input, path);
		}
		if (ex instanceof ErrorResponse errorResponse && !errorResponse.getStatusCode().is5xxServerError()) {
			ProblemType type = ProblemType.forStatus(errorResponse.getStatusCode().value());
			String detail = (type == ProblemType.NOT_FOUND) ? "No endpoint at " + path : errorResponse.getBody().getDetail();
			return problem(type, (detail != null) ? detail : type.title(), path, null, null);
		}
		if (ex instanceof DataBufferLimitException) {
			return problem(ProblemType.PAYLOAD_TOO_LARGE, "Request body exceeds the configured limit", path, null, null);
		}
		if (ex instanceof DataIntegrityViolationException) {
			return problem(ProblemType.CONFLICT, "The request conflicts with existing data", path, null, null);
		}
		if (isUnavailable(ex)) {
			logger.atWarn()
				.setMessage("Database unavailable while handling {}: {}")
				.addArgument(path)
				.addArgument(ex::toString)
				.addKeyValue(RequestId.LOG_KEY, requestId)
				.log();
			return problem(ProblemType.UNAVAILABLE, "The database is unavailable", path, null, null);
		}
		logger.atError()
			.setMessage("Unexpected failure handling {}")
			.addArgument(path)
			.addKeyValue(RequestId.LOG_KEY, requestId)
			.setCause(ex)
			.log();
		return problem(ProblemType.INTERNAL, "An unexpected error occurred", path, null, null);
	}

	private Problem inputProblem(ServerWebInputException input, String path) {
		JacksonException json = findCause(input, JacksonException.class);
		if (json != null) {
			InvalidFieldException invalid = JsonInputErrors.describe(json);
			return problem(invalid.type(), invalid.getMessage(), path, invalid.field(),
					List.of(new Problem.FieldError(invalid.field(), invalid.getMessage())));
		}
		String field = (input.getMethodParameter() != null) ? input.getMethodParameter().getParameterName() : null;
		String reason = (input.getReason() != null) ? input.getReason() : "Invalid request";
		if (field != null && reason.startsWith("Type mismatch")) {
			reason = "Invalid '" + field + "': not a valid value";
		}
		return problem(ProblemType.INVALID_REQUEST, reason, path, field, null);
	}

	private static boolean isUnavailable(Throwable ex) {
		return ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessException
				|| findCause(ex, R2dbcNonTransientResourceException.class) != null
				|| findCause(ex, R2dbcTransientException.class) != null || findCause(ex, TimeoutException.class) != null
				|| findCause(ex, java.net.ConnectException.class) != null;
	}

	private static <T extends Throwable> T findCause(Throwable ex, Class<T> type) {
		Throwable current = ex;
		while (current != null) {
			if (type.isInstance(current)) {
				return type.cast(current);
			}
			current = (current.getCause() != current) ? current.getCause() : null;
		}
		return null;
	}

	private static Problem problem(ProblemType type, String detail, String path, String field,
			List<Problem.FieldError> errors) {
		return new Problem(type.type(), type.title(), type.status().value(), detail, path, field, errors);
	}

}
