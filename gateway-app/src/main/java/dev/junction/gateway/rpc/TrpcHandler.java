package dev.junction.gateway.rpc;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code /trpc/{procedure}}: the tRPC v11 HTTP wire format without a transformer, as
 * {@code @trpc/client}'s {@code httpLink} and {@code httpBatchLink} speak it. Queries by GET
 * with {@code ?input=<json>}, mutations by POST with the input as the body; with
 * {@code ?batch=1} the path is a comma-separated list and the input an object keyed by index.
 */
public final class TrpcHandler {

	private static final String ENTRY_POINT = "trpc";

	private final Procedures procedures;

	private final RpcErrors errors;

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	private final int maxBatchSize;

	public TrpcHandler(Procedures procedures, RpcErrors errors, RequestBodies bodies, ObjectMapper mapper,
			int maxBatchSize) {
		this.procedures = procedures;
		this.errors = errors;
		this.bodies = bodies;
		this.mapper = mapper;
		this.maxBatchSize = maxBatchSize;
	}

	public Mono<ServerResponse> handle(ServerRequest request) {
		boolean batch = "1".equals(request.queryParam("batch").orElse(null));
		String path = request.pathVariable("path");
		List<String> paths = batch ? Arrays.asList(path.split(",", -1)) : List.of(path);
		RpcCall call = RpcCall.of(request.exchange(), ENTRY_POINT);
		return input(request)
			.map((input) -> new Input(input, null))
			.defaultIfEmpty(new Input(null, null))
			.onErrorResume((failure) -> Mono.just(new Input(null, this.errors.of(failure, call.exchange()))))
			.flatMap((input) -> {
				if (input.error() != null && input.error().httpStatus() == 413) {
					return respond(request, paths, batch, errorsFor(paths, input.error()));
				}
				if (batch && paths.size() > this.maxBatchSize) {
					RpcError error = RpcError.invalidRequest("Batch call exceeds maximum size")
						.withHttpStatus(400);
					return respond(request, paths, true, errorsFor(paths, error));
				}
				return Flux.range(0, paths.size())
					.flatMapSequential((index) -> call(request.method(), paths.get(index), input, batch, index, call),
							paths.size())
					.collectList()
					.flatMap((responses) -> respond(request, paths, batch, responses));
			});
	}

	private Mono<ObjectNode> call(HttpMethod method, String path, Input input, boolean batch, int index,
			RpcCall call) {
		Procedure procedure = this.procedures.find(path);
		if (procedure == null) {
			return Mono.just(error(new RpcError(RpcError.METHOD_NOT_FOUND, 404,
					"No procedure found on path \"" + path + "\"", null, null), path));
		}
		HttpMethod expected = (procedure.type() == Procedure.Type.QUERY) ? HttpMethod.GET : HttpMethod.POST;
		if (method != expected) {
			return Mono.just(error(new RpcError(RpcError.INVALID_REQUEST, 405, "Unsupported " + method
					+ "-request to " + procedure.type().trpcName() + " procedure at path \"" + path + "\"", null,
					null), path));
		}
		if (input.error() != null) {
			return Mono.just(error(input.error(), path));
		}
		JsonNode value = input.value();
		if (batch && value != null) {
			if (!value.isObject()) {
				return Mono.just(error(RpcError.invalidRequest("\"input\" needs to be an object when doing a batch call")
					.withHttpStatus(400), path));
			}
			value = value.get(Integer.toString(index));
		}
		return this.procedures.call(procedure, value, call)
			.map((data) -> TrpcResponses.result(this.mapper, data))
			.onErrorResume((failure) -> Mono.just(error(this.errors.of(failure, call.exchange()), path)));
	}

	/** The raw input: GET's {@code input} parameter or POST's body, parsed; empty when there is none. */
	private Mono<JsonNode> input(ServerRequest request) {
		if (request.method() == HttpMethod.GET) {
			return request.queryParam("input").map(this::parse).orElse(Mono.empty());
		}
		return this.bodies.read(request.exchange().getRequest())
			.flatMap((body) -> (body.length == 0) ? Mono.empty() : parse(body));
	}

	private Mono<JsonNode> parse(String json) {
		return parse(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

	private Mono<JsonNode> parse(byte[] json) {
		try {
			return Mono.justOrEmpty(this.mapper.readTree(json)).filter((node) -> !node.isMissingNode());
		}
		catch (JacksonException ex) {
			return Mono.error(new RpcException(
					RpcError.invalidRequest("the input is not valid JSON: " + InvalidRequestException.jsonSyntax(ex))));
		}
	}

	private Mono<ServerResponse> respond(ServerRequest request, List<String> paths, boolean batch,
			List<ObjectNode> responses) {
		int status = TrpcResponses.status(responses);
		ServerResponse.BodyBuilder response = ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON);
		if (status == 405) {
			response.header(HttpHeaders.ALLOW, (request.method() == HttpMethod.GET) ? "POST" : "GET");
		}
		if (status == 413) {
			response.header(HttpHeaders.CONNECTION, "close");
		}
		Object body = batch ? this.mapper.createArrayNode().addAll(responses) : responses.get(0);
		return response.bodyValue(this.mapper.writeValueAsBytes(body));
	}

	private List<ObjectNode> errorsFor(List<String> paths, RpcError error) {
		return IntStream.range(0, paths.size()).mapToObj((index) -> error(error, paths.get(index))).toList();
	}

	private ObjectNode error(RpcError error, String path) {
		return TrpcResponses.error(this.mapper, error, path);
	}

	private record Input(@Nullable JsonNode value, @Nullable RpcError error) {
	}

}
