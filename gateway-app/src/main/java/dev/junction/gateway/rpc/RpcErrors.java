package dev.junction.gateway.rpc;

import dev.junction.gateway.calculator.CalculatorException;
import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InternalGatewayException;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.requestid.RequestId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.server.ServerWebExchange;

/**
 * Maps any failure of a call to an {@link RpcError}: the gateway's own failures keep
 * their HTTP status, the calculator's invalid operands become invalid params, and
 * anything unexpected is logged and reported as an internal error without details.
 */
public final class RpcErrors {

	private static final Logger logger = LoggerFactory.getLogger(RpcErrors.class);

	private final OpenAiErrors gatewayErrors;

	private final ObjectMapper mapper;

	public RpcErrors(OpenAiErrors gatewayErrors, ObjectMapper mapper) {
		this.gatewayErrors = gatewayErrors;
		this.mapper = mapper;
	}

	/** The error for {@code failure} in a call of {@code exchange}'s request. */
	public RpcError of(Throwable failure, ServerWebExchange exchange) {
		if (failure instanceof RpcException rpc) {
			return rpc.error();
		}
		if (failure instanceof CalculatorException calculator) {
			return calculator(calculator);
		}
		GatewayException error = this.gatewayErrors.toGatewayException(failure);
		if (error instanceof InternalGatewayException && !OpenAiErrors.isClientGone(failure)) {
			logger.atError()
				.setMessage("Unexpected failure in an RPC call")
				.addKeyValue(RequestId.LOG_KEY, RequestId.of(exchange))
				.setCause(failure)
				.log();
			return RpcError.internal();
		}
		return gateway(error);
	}

	private RpcError calculator(CalculatorException failure) {
		ObjectNode data = this.mapper.createObjectNode().put("grpcStatus", failure.code().name());
		if (failure.isInvalidArgument()) {
			return new RpcError(RpcError.INVALID_PARAMS, 400, failure.getMessage(), data, null);
		}
		int status = switch (failure.code()) {
			case UNAVAILABLE -> 503;
			case DEADLINE_EXCEEDED -> 504;
			default -> 502;
		};
		return new RpcError(RpcError.SERVER_ERROR, status, failure.getMessage(), data, null);
	}

	private RpcError gateway(GatewayException error) {
		ObjectNode data = this.mapper.createObjectNode().put("type", error.type());
		if (error.code() != null) {
			data.put("code", error.code());
		}
		if (error.param() != null) {
			data.put("param", error.param());
		}
		int status = error.status();
		int code;
		if (status == 401) {
			code = RpcError.UNAUTHORIZED;
		}
		else if (status == 403) {
			code = RpcError.FORBIDDEN;
		}
		else if (status == 429) {
			code = RpcError.TOO_MANY_REQUESTS;
		}
		else if (status == 413) {
			code = RpcError.INVALID_REQUEST;
		}
		else if (status < 500) {
			code = RpcError.INVALID_PARAMS;
		}
		else {
			code = RpcError.SERVER_ERROR;
		}
		return new RpcError(code, status, error.getMessage(), data, error.retryAfter());
	}

}
