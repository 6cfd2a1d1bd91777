package dev.junction.gateway.rpc;

import java.util.List;

import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * A procedure served by both JSON-RPC and tRPC, defined once: its name, its parameters and
 * result for the OpenRPC document, how tRPC calls it, who may call it, and what it does.
 *
 * @param name the JSON-RPC method and tRPC path, e.g. {@code calculator.add}
 * @param summary a one-line description
 * @param type query (tRPC GET) or mutation (tRPC POST)
 * @param adminOnly whether the caller needs an admin key
 * @param params the parameters, in positional order
 * @param result the JSON Schema of the result
 * @param handler the implementation
 */
public record Procedure(String name, String summary, Type type, boolean adminOnly, List<Param> params,
		JsonNode result, Handler handler) {

	/** How tRPC calls a procedure. */
	public enum Type {

		/** Read-only: tRPC sends it by GET. */
		QUERY,

		/** Has effects or costs: tRPC sends it by POST. */
		MUTATION;

		public String trpcName() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/** What a procedure does with validated arguments. */
	@FunctionalInterface
	public interface Handler {

		Mono<JsonNode> handle(Arguments arguments, RpcCall call);

	}

}
