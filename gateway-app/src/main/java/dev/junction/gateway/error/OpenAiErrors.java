package dev.junction.gateway.error;

import java.util.Map;

import dev.junction.gateway.requestid.RequestId;
import dev.junction.netty.RequestBodyTimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Turns any failure into the OpenAI error shape:
 * {@code {"error":{"message","type","param","code"}}}.
 */
public final class OpenAiErrors {

	private static final Logger logger = LoggerFactory.getLogger(OpenAiErrors.class);

	private final ObjectMapper mapper;

	private final long maxBodyBytes;

	public OpenAiErrors(ObjectMapper mapper, long maxBodyBytes) {
		this.mapper = mapper;
		this.maxBodyBytes = maxBodyBytes;
	}

	/**
	 * The gateway failure that ends a stream already under way, as its last event tells
	 * the client; an unexpected one is logged with its cause, since the client sees no
	 * details.
	 */
	public GatewayException streamFailure(Throwable error, String requestId) {
		GatewayException failure = toGatewayException(error);
		if (failure instanceof InternalGatewayException) {
			logger.atError()
				.setMessage("Unexpected failure in a stream")
				.addKeyValue(RequestId.LOG_KEY, requestId)
				.setCause(error)
				.log();
		}
		return failure;
	}

	/**
	 * The gateway failure a throwable stands for; anything unexpected becomes a 500
	 * without details.
	 */
	public GatewayException toGatewayException(Throwable error) {
		if (error instanceof GatewayException gateway) {
			return gateway;
		}
		if (error instanceof DataBufferLimitException) {
			return InvalidRequestException.bodyTooLarge(this.maxBodyBytes);
		}
		if (error instanceof RequestBodyTimeoutException timeout) {
			return InvalidRequestException.requestTimeout(timeout.getReason());
		}
		if (error instanceof MethodNotAllowedException notAllowed) {
			return InvalidRequestException
				.methodNotAllowed("Method " + notAllowed.getHttpMethod() + " is not allowed on this path; use "
						+ String.join(" or ",
								notAllowed.getSupportedMethods().stream().map(Object::toString).sorted().toList())
						+ ".");
		}
		if (error instanceof UnsupportedMediaTypeStatusException unsupported) {
			return InvalidRequestException.unsupportedMediaType(
					"Content type " + unsupported.getContentType() + " is not supported; send application/json.");
		}
		if (error instanceof DecodingException decoding) {
			return InvalidRequestException.malformedJson((decoding.getCause() instanceof JacksonException json)
					? JsonErrors.describe(json) : "it could not be decoded");
		}
		if (error instanceof ResponseStatusException status) {
			int code = status.getStatusCode().value();
			if (code == HttpStatus.NOT_FOUND.value()) {
				return InvalidRequestException.notFound("No such endpoint.");
			}
			if (code == HttpStatus.PAYLOAD_TOO_LARGE.value()) {
				return InvalidRequestException.bodyTooLarge(this.maxBodyBytes);
			}
			if (code < 500) {
				return InvalidRequestException.invalidField(null,
						(status.getReason() != null) ? status.getReason() : "The request could not be processed.");
			}
		}
		return InternalGatewayException.INSTANCE;
	}

	/**
	 * Whether a failure only means that the client went away (an upload aborted, a
	 * connection reset): there is nobody left to answer, and nothing for an operator to
	 * see.
	 */
	public static boolean isClientGone(Throwable error) {
		return DisconnectedClientHelper.isClientDisconnectedException(error);
	}

	/** The error body for a failure. */
	public byte[] body(GatewayException error) {
		return this.mapper.writeValueAsBytes(tree(error));
	}

	/**
	 * The error as a JSON tree, also used for the error event that ends a broken stream.
	 */
	public ObjectNode tree(GatewayException error) {
		ObjectNode root = this.mapper.createObjectNode();
		ObjectNode body = root.putObject("error");
		body.put("message", error.getMessage());
		body.put("type", error.type());
		put(body, "param", error.param());
		put(body, "code", error.code());
		return root;
	}

	/** Headers that go with an error response. */
	public Map<String, String> headers(GatewayException error) {
		if (error.retryAfter() == null) {
			return Map.of();
		}
		return Map.of("Retry-After", RetryAfter.format(error.retryAfter()));
	}

	private static void put(ObjectNode node, String field, @Nullable String value) {
		if (value == null) {
			node.putNull(field);
		}
		else {
			node.put(field, value);
		}
	}

}
