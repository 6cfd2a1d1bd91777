package dev.junction.messaging.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
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

	/**
	 * The status recorded (never sent) for a request whose client went away: nginx's 499.
	 */
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
		ProblemDetail problem = toProblem(ex, path, RequestId.of(exchange));
		HttpHeaders headers = response.getHeaders();
		if (ex instanceof ErrorResponse errorResponse) {
			headers.addAll(errorResponse.getHeaders());
		}
		response.setStatusCode(HttpStatusCode.valueOf(problem.getStatus()));
		headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		headers.remove(HttpHeaders.CONTENT_LENGTH);
		byte[] body = this.jsonMapper.writeValueAsBytes(problem);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	/** The problem document answering {@code ex}, for the request at {@code path}. */
	ProblemDetail toProblem(Throwable ex, String path, String requestId) {
		ProblemDetail problem = describe(ex, path, requestId);
		problem.setInstance(instance(path));
		return problem;
	}

	private ProblemDetail describe(Throwable ex, String path, String requestId) {
		if (ex instanceof ApiException api) {
			return api.getBody();
		}
		if (ex instanceof WebExchangeBindException bind) {
			List<FieldError> errors = bind.getFieldErrors()
				.stream()
				.map((error) -> new FieldError(error.getField(), error.getDefaultMessage()))
				.toList();
			FieldError first = errors.isEmpty() ? new FieldError(bind.getObjectName(), "invalid") : errors.get(0);
			return ProblemType.invalidFields("Invalid '" + first.field() + "': " + first.message(), first.field(),
					errors);
		}
		if (ex instanceof ServerWebInputException input) {
			return inputProblem(input);
		}
		if (ex instanceof ErrorResponse errorResponse && !errorResponse.getStatusCode().is5xxServerError()) {
			ProblemType type = ProblemType.forStatus(errorResponse.getStatusCode().value());
			String detail = (type == ProblemType.NOT_FOUND) ? "No endpoint at " + path
					: errorResponse.getBody().getDetail();
			return type.problem((detail != null) ? detail : type.title());
		}
		if (ex instanceof DataBufferLimitException) {
			return ProblemType.PAYLOAD_TOO_LARGE.problem("Request body exceeds the configured limit");
		}
		if (ex instanceof DataIntegrityViolationException) {
			return ProblemType.CONFLICT.problem("The request conflicts with existing data");
		}
		if (isUnavailable(ex)) {
			logger.atWarn()
				.setMessage("Database unavailable while handling {}: {}")
				.addArgument(path)
				.addArgument(ex::toString)
				.addKeyValue(RequestId.LOG_KEY, requestId)
				.log();
			return ProblemType.UNAVAILABLE.problem("The database is unavailable");
		}
		logger.atError()
			.setMessage("Unexpected failure handling {}")
			.addArgument(path)
			.addKeyValue(RequestId.LOG_KEY, requestId)
			.setCause(ex)
			.log();
		return ProblemType.INTERNAL.problem("An unexpected error occurred");
	}

	private ProblemDetail inputProblem(ServerWebInputException input) {
		JacksonException json = findCause(input, JacksonException.class);
		if (json != null) {
			return JsonInputErrors.describe(json).getBody();
		}
		String field = (input.getMethodParameter() != null) ? input.getMethodParameter().getParameterName() : null;
		String reason = (input.getReason() != null) ? input.getReason() : "Invalid request";
		if (field != null && reason.startsWith("Type mismatch")) {
			reason = "Invalid '" + field + "': not a valid value";
		}
		ProblemDetail problem = ProblemType.INVALID_REQUEST.problem(reason);
		if (field != null) {
			problem.setProperty("field", field);
		}
		return problem;
	}

	/**
	 * The request path as the problem's {@code instance}; none if it is not a valid URI
	 * reference.
	 */
	private static URI instance(String path) {
		try {
			return new URI(path);
		}
		catch (URISyntaxException ex) {
			return null;
		}
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

}
