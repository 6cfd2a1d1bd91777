package dev.junction.gateway.rpc;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.auth.GatewayKeys;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Every procedure by name, and the one way to call one: look it up, check the caller's
 * rights, bind the arguments, run it. Both protocols dispatch through {@link #call}.
 */
public final class Procedures {

	private final Map<String, Procedure> procedures = new LinkedHashMap<>();

	private final GatewayKeys keys;

	private final RequestBudget budget;

	public Procedures(List<Procedure> procedures, GatewayKeys keys, RequestBudget budget) {
		for (Procedure procedure : procedures) {
			if (this.procedures.putIfAbsent(procedure.name(), procedure) != null) {
				throw new IllegalStateException("Procedure '" + procedure.name() + "' is defined twice");
			}
		}
		this.keys = keys;
		this.budget = budget;
	}

	public @Nullable Procedure find(String name) {
		return this.procedures.get(name);
	}

	public Collection<Procedure> all() {
		return this.procedures.values();
	}

	/**
	 * Runs {@code procedure} with {@code input}, after taking one request from the
	 * caller's budget unless the pipeline does; failures come as {@link RpcException} or
	 * as the cause.
	 */
	public Mono<JsonNode> call(Procedure procedure, @Nullable JsonNode input, RpcCall call) {
		Mono<JsonNode> run = Mono.defer(() -> {
			if (procedure.adminOnly() && !this.keys.isAdmin(call.authorization())) {
				return Mono.error(new RpcException((call.authorization() == null)
						? RpcError.unauthorized("'" + procedure.name()
								+ "' needs an admin key: send 'Authorization: Bearer <admin key>'.")
						: RpcError.forbidden("'" + procedure.name() + "' needs an admin key.")));
			}
			return procedure.handler().handle(Arguments.bind(procedure.params(), input), call);
		});
		return procedure.limitedByPipeline() ? run : this.budget.take(call.client(), call::budget).then(run);
	}

}
