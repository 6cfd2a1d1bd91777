package dev.junction.gateway.rpc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * superjson's wire format, as a tRPC server with {@code transformer: superjson} reads and
 * writes it. Inputs are {@code {"json": value, "meta": {"values": annotations}}}: values
 * annotated {@code undefined} are left out, {@code bigint} becomes an integer,
 * {@code number} the special numbers ({@code NaN}, {@code Infinity}, {@code -0}, refused
 * by numeric params as not finite); dates, sets, maps, regular expressions and class
 * instances keep their JSON form (an ISO date string, an array, ...). Outputs are plain
 * JSON, sent as {@code {"json": value}}. An input that is not an envelope is taken as
 * plain JSON.
 */
final class Superjson implements TrpcTransformer {

	private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	@Override
	public @Nullable JsonNode input(@Nullable JsonNode wire) {
		if (wire == null || !wire.isObject() || !(wire.has("json") || wire.has("meta"))) {
			return wire;
		}
		JsonNode json = wire.get("json");
		Root root = new Root((json != null) ? json.deepCopy() : null);
		JsonNode meta = wire.get("meta");
		if (meta != null && meta.has("values")) {
			boolean legacyPaths = !meta.has("v");
			traverse(meta.get("values"), List.of(), legacyPaths, root);
		}
		return root.value;
	}

	@Override
	public JsonNode output(JsonNode value) {
		ObjectNode envelope = JSON.objectNode();
		envelope.set("json", value);
		return envelope;
	}

	/** Applies an annotation tree: children first, then the node's own annotation. */
	private static void traverse(JsonNode tree, List<String> origin, boolean legacyPaths, Root root) {
		if (tree.isObject()) {
			for (Map.Entry<String, JsonNode> entry : tree.properties()) {
				traverse(entry.getValue(), concat(origin, parsePath(entry.getKey(), legacyPaths)), legacyPaths, root);
			}
			return;
		}
		if (!tree.isArray() || tree.isEmpty()) {
			throw malformed();
		}
		JsonNode children = tree.get(1);
		if (children != null && children.isObject()) {
			for (Map.Entry<String, JsonNode> entry : children.properties()) {
				traverse(entry.getValue(), concat(origin, parsePath(entry.getKey(), legacyPaths)), legacyPaths, root);
			}
		}
		root.apply(origin, tree.get(0));
	}

	private static List<String> concat(List<String> origin, List<String> more) {
		List<String> path = new ArrayList<>(origin);
		path.addAll(more);
		return path;
	}

	/**
	 * superjson's path syntax: segments joined by '.', with '\.' and '\\' escaped (not in
	 * legacy paths).
	 */
	static List<String> parsePath(String path, boolean legacyPaths) {
		List<String> segments = new ArrayList<>();
		StringBuilder segment = new StringBuilder();
		for (int i = 0; i < path.length(); i++) {
			char c = path.charAt(i);
			if (c == '\\' && i + 1 < path.length()
					&& (path.charAt(i + 1) == '.' || (!legacyPaths && path.charAt(i + 1) == '\\'))) {
				segment.append(path.charAt(++i));
			}
			else if (c == '.') {
				segments.add(segment.toString());
				segment.setLength(0);
			}
			else {
				segment.append(c);
			}
		}
		segments.add(segment.toString());
		return segments;
	}

	private static RpcException malformed() {
		return new RpcException(RpcError.invalidRequest("the superjson input's \"meta\" is malformed"));
	}

	/** The input being decoded; null stands for undefined. */
	private static final class Root {

		private @Nullable JsonNode value;

		Root(@Nullable JsonNode value) {
			this.value = value;
		}

		void apply(List<String> path, JsonNode annotation) {
			if (path.isEmpty()) {
				this.value = decode(this.value, annotation);
				return;
			}
			JsonNode parent = this.value;
			for (String segment : path.subList(0, path.size() - 1)) {
				if (parent != null) {
					parent = parent.isArray() ? parent.get(index(segment)) : parent.get(segment);
				}
			}
			String last = path.get(path.size() - 1);
			if (parent instanceof ObjectNode object && object.has(last)) {
				JsonNode decoded = decode(object.get(last), annotation);
				if (decoded == null) {
					object.remove(last);
				}
				else {
					object.set(last, decoded);
				}
			}
			else if (parent instanceof ArrayNode array && index(last) < array.size()) {
				JsonNode decoded = decode(array.get(index(last)), annotation);
				array.set(index(last), (decoded != null) ? decoded : JSON.nullNode());
			}
		}

		private static int index(String segment) {
			try {
				return Integer.parseInt(segment);
			}
			catch (NumberFormatException ex) {
				throw malformed();
			}
		}

		/** The value an annotated one stands for; null for undefined. */
		private static @Nullable JsonNode decode(@Nullable JsonNode value, JsonNode annotation) {
			if (!annotation.isString()) {
				// class, symbol, custom and typed-array instances keep their JSON form
				return value;
			}
			String text = (value != null && value.isString()) ? value.stringValue() : null;
			return switch (annotation.stringValue()) {
				case "undefined" -> null;
				case "bigint" -> (text != null) ? bigint(text) : value;
				case "number" -> (text != null) ? JSON.numberNode(number(text)) : value;
				default -> value;
			};
		}

		private static JsonNode bigint(String text) {
			try {
				return JSON.numberNode(new BigInteger(text.strip()));
			}
			catch (NumberFormatException ex) {
				throw new RpcException(
						RpcError.invalidRequest("the superjson bigint '" + text + "' is not an integer"));
			}
		}

		private static double number(String text) {
			return switch (text) {
				case "NaN" -> Double.NaN;
				case "Infinity" -> Double.POSITIVE_INFINITY;
				case "-Infinity" -> Double.NEGATIVE_INFINITY;
				case "-0" -> -0.0;
				default -> {
					try {
						yield Double.parseDouble(text);
					}
					catch (NumberFormatException ex) {
						throw malformed();
					}
				}
			};
		}

	}

}
