package dev.junction.gateway.rpc;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.rpc.TrpcResponses.Answer;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.NullNode;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Answers failures raised before an RPC handler runs (a missing gateway key, an unknown
 * route) in the protocol of the path: a JSON-RPC error object under {@code /rpc}, tRPC
 * error envelopes (one per call of a batch) under {@code /trpc}. The HTTP status is kept.
 * Other paths go on to the OpenAI error handler.
 */
@Order(-3)
public final class RpcErrorWebExceptionHandler implements WebExceptionHandler {

	private static final String TRPC = "/trpc";

	private final RpcErrors errors;

	private final ObjectMapper mapper;

	private final TrpcTransformer transformer;

	public RpcErrorWebExceptionHandler(RpcErrors errors, ObjectMapper mapper, TrpcTransformer transformer) {
		this.errors = errors;
		this.mapper = mapper;
		this.transformer = transformer;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		boolean rpc = path.equals("/rpc") || path.startsWith("/rpc/");
		boolean trpc = path.equals(TRPC) || path.startsWith(TRPC + "/");
		ServerHttpResponse response = exchange.getResponse();
		if ((!rpc && !trpc) || response.isCommitted() || OpenAiErrors.isClientGone(failure)) {
			return Mono.error(failure);
		}
		RpcError error = this.errors.of(failure, exchange);
		JsonNode body;
		int status;
		if (rpc) {
			body = JsonRpcResponses.error(this.mapper, NullNode.getInstance(), error);
			status = error.httpStatus();
		}
		else {
			String procedures = path.startsWith(TRPC + "/") ? path.substring(TRPC.length() + 1) : "";
			boolean batch = "1".equals(exchange.getRequest().getQueryParams().getFirst("batch"));
			List<String> paths = batch ? Arrays.asList(procedures.split(",", -1))
					: Collections.singletonList(procedures.isEmpty() ? null : procedures);
			List<Answer> answers = paths.stream().map((each) -> Answer.failed(each, error)).toList();
			body = TrpcResponses.body(this.mapper, this.transformer, answers, batch);
			status = TrpcResponses.status(answers);
		}
		response.setStatusCode(HttpStatus.valueOf(status));
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		if (failure instanceof ErrorResponse framework) {
			framework.getHeaders().forEach((name, values) -> response.getHeaders().put(name, values));
		}
		if (error.retryAfter() != null && (status == 429 || status == 503)) {
			response.getHeaders().set(HttpHeaders.RETRY_AFTER, RetryAfter.format(error.retryAfter()));
		}
		if (status == 413) {
			response.getHeaders().set(HttpHeaders.CONNECTION, "close");
		}
		return response
			.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(this.mapper.writeValueAsBytes(body))));
	}

}
