package dev.junction.gateway.rpc;

/**
 * One parameter of a procedure, by name and by position.
 *
 * @param name the name in by-name params and tRPC input objects
 * @param type the JSON Schema type: string, integer, number or boolean
 * @param required whether a call must supply it
 * @param description what it means, for the OpenRPC document
 */
public record Param(String name, String type, boolean required, String description) {

	public static Param required(String name, String type, String description) {
		return new Param(name, type, true, description);
	}

	public static Param optional(String name, String type, String description) {
		return new Param(name, type, false, description);
	}

}
