package dev.junction.gateway.rpc;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One parameter of a procedure, by name and by position, with the bounds its value must
 * keep.
 *
 * @param name the name in by-name params and tRPC input objects
 * @param type the JSON Schema type: string, integer, number, boolean or object
 * @param required whether a call must supply it
 * @param description what it means, for the OpenRPC document
 * @param minimum the smallest number allowed, if bounded
 * @param maximum the largest number allowed, if bounded
 * @param values the strings allowed, if only some are
 * @param properties the members of an object, checked as parameters; empty for a
 * free-form object
 */
public record Param(String name, String type, boolean required, String description, @Nullable Double minimum,
		@Nullable Double maximum, List<String> values, List<Param> properties) {

	public Param {
		values = List.copyOf(values);
		properties = List.copyOf(properties);
	}

	public static Param required(String name, String type, String description) {
		return new Param(name, type, true, description, null, null, List.of(), List.of());
	}

	public static Param optional(String name, String type, String description) {
		return new Param(name, type, false, description, null, null, List.of(), List.of());
	}

	/** This parameter, accepting only numbers from {@code minimum} to {@code maximum}. */
	public Param between(double minimum, double maximum) {
		return new Param(this.name, this.type, this.required, this.description, minimum, maximum, this.values,
				this.properties);
	}

	/** This parameter, accepting only the given strings. */
	public Param oneOf(String... values) {
		return new Param(this.name, this.type, this.required, this.description, this.minimum, this.maximum,
				List.of(values), this.properties);
	}

	/** This object parameter, with these members. */
	public Param with(Param... properties) {
		return new Param(this.name, this.type, this.required, this.description, this.minimum, this.maximum, this.values,
				List.of(properties));
	}

}
