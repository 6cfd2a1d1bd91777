package dev.junction.gateway.rpc;

import java.math.BigDecimal;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A call's arguments, bound by name or by position to a procedure's parameters and
 * checked against their types and bounds. Binding failures are invalid params that name
 * the parameter.
 */
public final class Arguments {

	private static final Arguments NONE = new Arguments(JsonNodeFactory.instance.objectNode());

	private final ObjectNode values;

	private Arguments(ObjectNode values) {
		this.values = values;
	}

	/**
	 * Binds params given as an object (by name), an array (by position), or not at all.
	 * @throws RpcException invalid params: unknown, missing, extra, mistyped or
	 * out-of-range parameters
	 */
	public static Arguments bind(List<Param> params, @Nullable JsonNode input) {
		if (input == null || input.isNull() || input.isMissingNode()) {
			return new Arguments(checked(params, JsonNodeFactory.instance.objectNode(), ""));
		}
		if (input.isArray()) {
			if (input.size() > params.size()) {
				throw invalid("expected at most " + params.size() + " positional params, got " + input.size(), null);
			}
			ObjectNode byName = JsonNodeFactory.instance.objectNode();
			for (int i = 0; i < input.size(); i++) {
				byName.set(params.get(i).name(), input.get(i));
			}
			return new Arguments(checked(params, byName, ""));
		}
		if (input.isObject()) {
			return new Arguments(checked(params, (ObjectNode) input, ""));
		}
		throw invalid("params must be an object (by name) or an array (by position)", null);
	}

	/**
	 * The members of {@code object} that are not null, each checked against its
	 * parameter.
	 */
	private static ObjectNode checked(List<Param> params, ObjectNode object, String prefix) {
		ObjectNode values = JsonNodeFactory.instance.objectNode();
		for (String name : object.propertyNames()) {
			if (params.stream().noneMatch((param) -> param.name().equals(name))) {
				throw invalid("unknown param '" + prefix + name + "'", prefix + name);
			}
			if (!object.get(name).isNull()) {
				values.set(name, object.get(name));
			}
		}
		for (Param param : params) {
			String path = prefix + param.name();
			JsonNode value = values.get(param.name());
			if (value == null) {
				if (param.required()) {
					throw invalid("missing required param '" + path + "'", path);
				}
			}
			else if (param.type().equals("object") && !param.properties().isEmpty()) {
				if (!value.isObject()) {
					throw invalid("param '" + path + "' must be an object", path);
				}
				values.set(param.name(), checked(param.properties(), (ObjectNode) value, path + "."));
			}
			else {
				check(value, param, path);
			}
		}
		return values;
	}

	private static void check(JsonNode value, Param param, String path) {
		String problem = switch (param.type()) {
			case "string" -> !value.isString() ? "a string"
					: (!param.values().isEmpty() && !param.values().contains(value.stringValue()))
							? "one of " + String.join(", ", param.values()) : null;
			case "number" -> !isFiniteNumber(value) ? "a finite number" : outOfRange(value, param, "a number");
			case "integer" -> !isWholeNumber(value) ? "an integer" : outOfRange(value, param, "an integer");
			case "boolean" -> !value.isBoolean() ? "a boolean" : null;
			case "object" -> !value.isObject() ? "an object" : null;
			default -> null;
		};
		if (problem != null) {
			throw invalid("param '" + path + "' must be " + problem, path);
		}
	}

	/**
	 * A description of the bounds {@code value} breaks, or null; integers are bounded to
	 * a {@code long} at most.
	 */
	private static @Nullable String outOfRange(JsonNode value, Param param, String kind) {
		boolean integer = kind.equals("an integer");
		Double minimum = (param.minimum() == null && integer) ? Double.valueOf(Long.MIN_VALUE) : param.minimum();
		Double maximum = (param.maximum() == null && integer) ? Double.valueOf(Long.MAX_VALUE) : param.maximum();
		double number = value.asDouble();
		boolean low = minimum != null && number < minimum;
		boolean high = maximum != null && (number > maximum || (integer && number >= 0x1p63));
		if (!low && !high) {
			return null;
		}
		if (minimum != null && maximum != null) {
			return kind + " from " + format(minimum) + " to " + format(maximum);
		}
		return (minimum != null) ? kind + " of at least " + format(minimum) : kind + " of at most " + format(maximum);
	}

	private static boolean isFiniteNumber(JsonNode value) {
		return value.isNumber() && Double.isFinite(value.asDouble());
	}

	/** A whole number, however it is written (3, 3.0, 3e0, 1e20). */
	private static boolean isWholeNumber(JsonNode value) {
		if (value.isIntegralNumber()) {
			return true;
		}
		if (!isFiniteNumber(value)) {
			return false;
		}
		double number = value.asDouble();
		return number == Math.rint(number);
	}

	private static String format(double number) {
		return BigDecimal.valueOf(number).stripTrailingZeros().toPlainString();
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

	public boolean bool(String name, boolean fallback) {
		return has(name) ? this.values.get(name).asBoolean() : fallback;
	}

	public double number(String name) {
		return this.values.get(name).asDouble();
	}

	/** An integer param; bound checks guarantee it fits. */
	public long integer(String name) {
		JsonNode value = this.values.get(name);
		return value.isIntegralNumber() ? value.asLong() : (long) value.asDouble();
	}

	public @Nullable JsonNode node(String name) {
		return this.values.get(name);
	}

	/** The arguments inside an object param; none when it was not given. */
	public Arguments nested(String name) {
		JsonNode value = this.values.get(name);
		return (value instanceof ObjectNode object) ? new Arguments(object) : NONE;
	}

	/** An invalid-params failure about {@code param}. */
	public static RpcException invalid(String detail, @Nullable String param) {
		ObjectNode data = null;
		if (param != null) {
			data = JsonNodeFactory.instance.objectNode().put("param", param);
		}
		return new RpcException(RpcError.invalidParams(detail, data));
	}

}
