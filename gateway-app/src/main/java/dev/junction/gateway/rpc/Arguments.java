package dev.junction.gateway.rpc;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A call's arguments, bound by name or by position to a procedure's parameters and checked
 * against their types. Binding failures are invalid params that name the parameter.
 */
public final class Arguments {

	private final ObjectNode values;

	private Arguments(ObjectNode values) {
		this.values = values;
	}

	/**
	 * Binds params given as an object (by name), an array (by position), or not at all.
	 * @throws RpcException invalid params: unknown, missing, extra or mistyped parameters
	 */
	public static Arguments bind(List<Param> params, @Nullable JsonNode input) {
		ObjectNode values = JsonNodeFactory.instance.objectNode();
		if (input == null || input.isNull() || input.isMissingNode()) {
			// no params
		}
		else if (input.isArray()) {
			if (input.size() > params.size()) {
				throw invalid("expected at most " + params.size() + " positional params, got " + input.size(), null);
			}
			for (int i = 0; i < input.size(); i++) {
				if (!input.get(i).isNull()) {
					values.set(params.get(i).name(), input.get(i));
				}
			}
		}
		else if (input.isObject()) {
			for (String name : input.propertyNames()) {
				if (params.stream().noneMatch((param) -> param.name().equals(name))) {
					throw invalid("unknown param '" + name + "'", name);
				}
				if (!input.get(name).isNull()) {
					values.set(name, input.get(name));
				}
			}
		}
		else {
			throw invalid("params must be an object (by name) or an array (by position)", null);
		}
		for (Param param : params) {
			JsonNode value = values.get(param.name());
			if (value == null) {
				if (param.required()) {
					throw invalid("missing required param '" + param.name() + "'", param.name());
				}
			}
			else if (!hasType(value, param.type())) {
				throw invalid("param '" + param.name() + "' must be " + article(param.type()) + " " + param.type(),
						param.name());
			}
		}
		return new Arguments(values);
	}

	public boolean has(String name) {
		return this.values.has(name);
	}

	public String string(String name) {
		return this.values.get(name).stringValue();
	}

	public @Nullable String string(String name, @Nullable String fallback) {
		return has(name) ? string(name) : fallback;
	}

	public double number(String name) {
		return this.values.get(name).asDouble();
	}

	public long integer(String name) {
		return this.values.get(name).asLong();
	}

	public @Nullable JsonNode node(String name) {
		return this.values.get(name);
	}

	/** An invalid-params failure about {@code param}. */
	public static RpcException invalid(String detail, @Nullable String param) {
		ObjectNode data = null;
		if (param != null) {
			data = JsonNodeFactory.instance.objectNode().put("param", param);
		}
		return new RpcException(RpcError.invalidParams(detail, data));
	}

	private static boolean hasType(JsonNode value, String type) {
		return switch (type) {
			case "string" -> value.isString();
			case "number" -> value.isNumber();
			case "integer" -> value.isIntegralNumber() && value.canConvertToLong()
					|| value.isFloatingPointNumber() && value.asDouble() == Math.rint(value.asDouble());
			case "boolean" -> value.isBoolean();
			case "object" -> value.isObject();
			default -> true;
		};
	}

	private static String article(String type) {
		return type.startsWith("i") ? "an" : "a";
	}

}
