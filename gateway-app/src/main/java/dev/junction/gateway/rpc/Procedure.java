package dev.junction.gateway.rpc;

import java.util.List;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpMethod;

/**
 * A procedure served by both JSON-RPC and tRPC, defined once: its name, its parameters
 * and result for the OpenRPC document, how tRPC calls it, who may call it, and what it
 * does.
 *
 * @param name the JSON-RPC method and tRPC path, e.g. {@code calculator.add}
 * @param summary a one-line description
 * @param type query (tRPC GET), mutation (tRPC POST) or both
 * @param adminOnly whether the caller needs an admin key
 * @param limitedByPipeline whether the chat pipeline applies the caller's rate limits
 * itself; otherwise each call takes one request from the caller's budget before it runs
 * @param params the parameters, in positional order
 * @param result the JSON Schema of the result
 * @param handler the implementation
 */
public record Procedure(String name, String summary, Type type, boolean adminOnly, boolean limitedByPipeline,
		List<Param> params, JsonNode result, Handler handler) {

	/** A procedure that any caller may call and that the RPC layer rate-limits. */
	public static Procedure of(String name, String summary, Type type, List<Param> params, JsonNode result,
			Handler handler) {
		return new Procedure(name, summary, type, false, false, params, result, handler);
	}

	/** How tRPC calls a procedure. */
	public enum Type {

		/** Read-only: tRPC sends it by GET. */
		QUERY,

		/** Has effects or costs: tRPC sends it by POST. */
		MUTATION,

		/** A mutation that is also answered when sent by GET, as a query. */
		MUTATION_OR_QUERY;

		public String trpcName() {
			return (this == QUERY) ? "query" : "mutation";
		}

		/** Whether tRPC may send it with {@code method}. */
		public boolean accepts(HttpMethod method) {
			return switch (this) {
				case QUERY -> method == HttpMethod.GET;
				case MUTATION -> method == HttpMethod.POST;
				case MUTATION_OR_QUERY -> method == HttpMethod.GET || method == HttpMethod.POST;
			};
		}

		/** The methods tRPC may send it with, for {@code Allow}. */
		public String allow() {
			return switch (this) {
				case QUERY -> "GET";
				case MUTATION -> "POST";
				case MUTATION_OR_QUERY -> "GET, POST";
			};
		}

	}

	/** What a procedure does with validated arguments. */
	@FunctionalInterface
	public interface Handler {

		Mono<JsonNode> handle(Arguments arguments, RpcCall call);

	}

}
