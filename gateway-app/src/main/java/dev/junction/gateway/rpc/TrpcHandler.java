package dev.junction.gateway.rpc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.rpc.TrpcResponses.Answer;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code /trpc/{procedure}}: the tRPC v11 HTTP wire format, as {@code @trpc/client}'s
 * {@code httpLink} and {@code httpBatchLink} speak it, plain or through a transformer
 * (superjson). Queries by GET with {@code ?input=<json>}, mutations by POST with the
 * input as the body; with {@code ?batch=1} the path is a comma-separated list and the
 * input an object keyed by index.
 */
public final class TrpcHandler {

	private static final String ENTRY_POINT = "trpc";

	private final Procedures procedures;

	private final RpcErrors errors;

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	private final int maxBatchSize;

	private final TrpcTransformer transformer;

	public TrpcHandler(Procedures procedures, RpcErrors errors, RequestBodies bodies, ObjectMapper mapper,
			int maxBatchSize, TrpcTransformer transformer) {
		this.procedures = procedures;
		this.errors = errors;
		this.bodies = bodies;
		this.mapper = mapper;
		this.maxBatchSize = maxBatchSize;
		this.transformer = transformer;
	}

	public Mono<ServerResponse> handle(ServerRequest request) {
		boolean batch = "1".equals(request.queryParam("batch").orElse(null));
		String path = request.pathVariable("path");
		List<String> paths = batch ? Arrays.asList(path.split(",", -1)) : List.of(path);
		RpcCall call = RpcCall.of(request.exchange(), ENTRY_POINT);
		return input(request).map((input) -> new Input(input, null))
			.defaultIfEmpty(new Input(null, null))
			.onErrorResume((failure) -> Mono.just(new Input(null, this.errors.of(failure, call.exchange()))))
			.flatMap((input) -> {
				if (input.error() != null && input.error().httpStatus() == 413) {
					return respond(request, batch, failed(paths, input.error()), call);
				}
				if (batch && paths.size() > this.maxBatchSize) {
					RpcError error = RpcError.invalidRequest("Batch call exceeds maximum size").withHttpStatus(400);
					return respond(request, true, failed(paths, error), call);
				}
				return Flux.range(0, paths.size())
					.flatMapSequential((index) -> call(request.method(), paths.get(index), input, batch, index, call),
							paths.size())
					.collectList()
					.flatMap((answers) -> respond(request, batch, answers, call));
			});
	}

	private Mono<Answer> call(HttpMethod method, String path, Input input, boolean batch, int index, RpcCall call) {
		Procedure procedure = this.procedures.find(path);
		if (procedure == null) {
			return Mono.just(Answer.failed(path, new RpcError(RpcError.METHOD_NOT_FOUND, 404,
					"No procedure found on path \"" + path + "\"", null, null)));
		}
		if (!procedure.type().accepts(method)) {
			return Mono.just(Answer.failed(path,
					new RpcError(
							RpcError.INVALID_REQUEST, 405, "Unsupported " + method + "-request to "
									+ procedure.type().trpcName() + " procedure at path \"" + path + "\"",
							null, null)));
		}
		if (input.error() != null) {
			return Mono.just(Answer.failed(path, input.error()));
		}
		JsonNode value = input.value();
		if (batch && value != null) {
			if (!value.isObject()) {
				return Mono.just(Answer.failed(path,
						RpcError.invalidRequest("\"input\" needs to be an object when doing a batch call")
							.withHttpStatus(400)));
			}
			value = value.get(Integer.toString(index));
		}
		JsonNode decoded;
		try {
			decoded = this.transformer.input(value);
		}
		catch (RpcException ex) {
			return Mono.just(Answer.failed(path, ex.error()));
		}
		return this.procedures.call(procedure, decoded, call)
			.map((data) -> Answer.of(path, data))
			.onErrorResume((failure) -> Mono.just(Answer.failed(path, this.errors.of(failure, call.exchange()))));
	}

	/**
	 * The raw input: GET's {@code input} parameter or POST's body, parsed; empty when
	 * there is none.
	 */
	private Mono<JsonNode> input(ServerRequest request) {
		if (request.method() == HttpMethod.GET) {
			return request.queryParam("input")
				.map((input) -> parse(input.getBytes(StandardCharsets.UTF_8)))
				.orElse(Mono.empty());
		}
		return this.bodies.read(request.exchange().getRequest())
			.flatMap((body) -> (body.length == 0) ? Mono.empty() : parse(body));
	}

	private Mono<JsonNode> parse(byte[] json) {
		try {
			return Mono.justOrEmpty(this.mapper.readTree(json)).filter((node) -> !node.isMissingNode());
		}
		catch (JacksonException ex) {
			return Mono.error(new RpcException(
					RpcError.invalidRequest("the input is not valid JSON: " + JsonProblems.describe(ex))));
		}
	}

	private Mono<ServerResponse> respond(ServerRequest request, boolean batch, List<Answer> answers, RpcCall call) {
		int status = TrpcResponses.status(answers);
		ServerResponse.BodyBuilder response = ServerResponse.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.headers(call::headers);
		if (status == 405) {
			Procedure procedure = this.procedures.find(answers.get(0).path());
			response.header(HttpHeaders.ALLOW, (procedure != null) ? procedure.type().allow()
					: (request.method() == HttpMethod.GET) ? "POST" : "GET");
		}
		if (status == 413) {
			response.header(HttpHeaders.CONNECTION, "close");
		}
		Duration retryAfter = TrpcResponses.retryAfter(answers);
		if (retryAfter != null) {
			response.header(HttpHeaders.RETRY_AFTER, RetryAfter.format(retryAfter));
		}
		return response.bodyValue(
				this.mapper.writeValueAsBytes(TrpcResponses.body(this.mapper, this.transformer, answers, batch)));
	}

	private static List<Answer> failed(List<String> paths, RpcError error) {
		return IntStream.range(0, paths.size()).mapToObj((index) -> Answer.failed(paths.get(index), error)).toList();
	}

	private record Input(@Nullable JsonNode value, @Nullable RpcError error) {
	}

}
