package dev.junction.gateway.rpc;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * How tRPC inputs and outputs are encoded on the wire, as a tRPC server's
 * {@code transformer} option chooses: plain JSON, or superjson's
 * {@code {"json":…,"meta":…}} envelopes.
 */
public interface TrpcTransformer {

	/** Plain JSON, as {@code @trpc/client} without a transformer sends and reads it. */
	TrpcTransformer NONE = new TrpcTransformer() {

		@Override
		public @Nullable JsonNode input(@Nullable JsonNode wire) {
			return wire;
		}

		@Override
		public JsonNode output(JsonNode value) {
			return value;
		}

	};

	/** The value an input on the wire stands for; null when it stands for no input. */
	@Nullable JsonNode input(@Nullable JsonNode wire);

	/** The wire form of an output: a result's data or an error's shape. */
	JsonNode output(JsonNode value);

	/** The transformer named by {@code junction.gateway.rpc.trpc-transformer}. */
	static TrpcTransformer named(String name) {
		return switch (name) {
			case "none" -> NONE;
			case "superjson" -> new Superjson();
			default -> throw new IllegalStateException(
					RpcProperties.PREFIX + ".trpc-transformer must be 'none' or 'superjson', not '" + name + "'");
		};
	}

}
