package dev.junction.gateway.rpc;

import java.time.Duration;
import java.util.List;

import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.error.RetryAfter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code POST /rpc}: JSON-RPC 2.0. Single requests, notifications (no response) and
 * batches, whose members run concurrently and are answered in order. Every processed
 * request is answered 200 (204 when nothing is to be answered); a single call refused for
 * its rate limit keeps 429 (a request refused for its gateway key is 401 before it gets
 * here).
 */
public final class JsonRpcHandler {

	private static final String ENTRY_POINT = "rpc";

	private final Procedures procedures;

	private final RpcErrors errors;

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	private final int maxBatchSize;

	public JsonRpcHandler(Procedures procedures, RpcErrors errors, RequestBodies bodies, ObjectMapper mapper,
			int maxBatchSize) {
		this.procedures = procedures;
		this.errors = errors;
		this.bodies = bodies;
		this.mapper = mapper;
		this.maxBatchSize = maxBatchSize;
	}

	public Mono<ServerResponse> handle(ServerRequest request) {
		if (request.method() != HttpMethod.POST) {
			return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
				.header(HttpHeaders.ALLOW, "POST")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(body(JsonRpcResponses.error(this.mapper, NullNode.getInstance(),
						RpcError.invalidRequest("JSON-RPC requests are sent with POST"))));
		}
		RpcCall call = RpcCall.of(request.exchange(), ENTRY_POINT);
		return this.bodies.read(request.exchange().getRequest())
			.flatMap((body) -> respond(body, call))
			.onErrorResume((failure) -> {
				RpcError error = this.errors.of(failure, request.exchange());
				ServerResponse.BodyBuilder response = ServerResponse.status(error.httpStatus())
					.contentType(MediaType.APPLICATION_JSON);
				if (error.httpStatus() == 413) {
					// The refused body may still be arriving: do not read it as the next
					// request.
					response.header(HttpHeaders.CONNECTION, "close");
				}
				return response.bodyValue(body(JsonRpcResponses.error(this.mapper, NullNode.getInstance(), error)));
			});
	}

	private Mono<ServerResponse> respond(byte[] body, RpcCall call) {
		JsonNode tree;
		try {
			tree = this.mapper.readTree(body);
		}
		catch (JacksonException ex) {
			return ok(JsonRpcResponses.error(this.mapper, NullNode.getInstance(),
					RpcError.parseError(JsonProblems.describe(ex))));
		}
		if (tree == null || tree.isMissingNode()) {
			return ok(JsonRpcResponses.error(this.mapper, NullNode.getInstance(),
					RpcError.parseError("the request body is empty")));
		}
		if (tree.isArray()) {
			return batch(tree, call);
		}
		return single(tree, call).flatMap((outcome) -> {
			ServerResponse.BodyBuilder response = ServerResponse.status(status(outcome.error()))
				.contentType(MediaType.APPLICATION_JSON)
				.headers(call::headers);
			if (outcome.error() != null && outcome.error().retryAfter() != null) {
				response.header(HttpHeaders.RETRY_AFTER, RetryAfter.format(outcome.error().retryAfter()));
			}
			return response.bodyValue(body(outcome.response()));
		}).switchIfEmpty(Mono.defer(() -> ServerResponse.noContent().headers(call::headers).build()));
	}

	private Mono<ServerResponse> batch(JsonNode batch, RpcCall call) {
		if (batch.isEmpty()) {
			return ok(JsonRpcResponses.error(this.mapper, NullNode.getInstance(),
					RpcError.invalidRequest("an empty batch")));
		}
		if (batch.size() > this.maxBatchSize) {
			return ok(JsonRpcResponses.error(this.mapper, NullNode.getInstance(), RpcError
				.invalidRequest("a batch of " + batch.size() + " requests exceeds the limit of " + this.maxBatchSize)));
		}
		List<JsonNode> requests = batch.valueStream().toList();
		return Flux.fromIterable(requests)
			.flatMapSequential((request) -> single(request, call), requests.size())
			.collectList()
			.flatMap((outcomes) -> {
				if (outcomes.isEmpty()) {
					return ServerResponse.noContent().headers(call::headers).build();
				}
				ServerResponse.BodyBuilder response = ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.headers(call::headers);
				outcomes.stream()
					.map(Outcome::error)
					.filter((error) -> error != null && error.httpStatus() == 429 && error.retryAfter() != null)
					.map(RpcError::retryAfter)
					.max(Duration::compareTo)
					.ifPresent((delay) -> response.header(HttpHeaders.RETRY_AFTER, RetryAfter.format(delay)));
				return response.bodyValue(
						body(this.mapper.createArrayNode().addAll(outcomes.stream().map(Outcome::response).toList())));
			});
	}

	/** The response to one request object, or nothing for a notification. */
	private Mono<Outcome> single(JsonNode request, RpcCall call) {
		if (!request.isObject()) {
			return invalid(NullNode.getInstance(), "expected a request object");
		}
		JsonNode id = request.get("id");
		boolean notification = (id == null);
		if (id != null && !id.isString() && !id.isNumber() && !id.isNull()) {
			return invalid(NullNode.getInstance(), "'id' must be a string, a number or null");
		}
		JsonNode responseId = (id != null) ? id : NullNode.getInstance();
		JsonNode version = request.get("jsonrpc");
		if (version == null || !version.isString() || !"2.0".equals(version.stringValue())) {
			return invalid(responseId, "'jsonrpc' must be exactly \"2.0\"");
		}
		JsonNode method = request.get("method");
		if (method == null || !method.isString()) {
			return invalid(responseId, "'method' must be a string");
		}
		JsonNode params = request.get("params");
		if (params != null && !params.isArray() && !params.isObject()) {
			return invalid(responseId, "'params' must be an array or an object");
		}
		Procedure procedure = this.procedures.find(method.stringValue());
		Mono<JsonNode> result = (procedure != null) ? this.procedures.call(procedure, params, call)
				: Mono.error(new RpcException(RpcError.methodNotFound(method.stringValue())));
		if (notification) {
			return result.onErrorResume((failure) -> {
				this.errors.of(failure, call.exchange());
				return Mono.empty();
			}).then(Mono.empty());
		}
		return result.map((value) -> new Outcome(JsonRpcResponses.result(this.mapper, responseId, value), null))
			.switchIfEmpty(Mono.fromSupplier(
					() -> new Outcome(JsonRpcResponses.result(this.mapper, responseId, NullNode.getInstance()), null)))
			.onErrorResume((failure) -> {
				RpcError error = this.errors.of(failure, call.exchange());
				return Mono.just(new Outcome(JsonRpcResponses.error(this.mapper, responseId, error), error));
			});
	}

	private Mono<Outcome> invalid(JsonNode id, String detail) {
		RpcError error = RpcError.invalidRequest(detail);
		return Mono.just(new Outcome(JsonRpcResponses.error(this.mapper, id, error), error));
	}

	/**
	 * 200 for every processed call, as JSON-RPC clients expect, but 429 for one refused
	 * by its rate limit.
	 */
	private static int status(@Nullable RpcError error) {
		return (error != null && error.httpStatus() == 429) ? 429 : 200;
	}

	private Mono<ServerResponse> ok(JsonNode response) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(body(response));
	}

	private byte[] body(JsonNode response) {
		return this.mapper.writeValueAsBytes(response);
	}

	private record Outcome(ObjectNode response, @Nullable RpcError error) {
	}

}
