package dev.junction.gateway.routing;

import java.util.List;

/**
 * Where a requested model can be served, in order of preference.
 *
 * @param requested the {@code model} the client sent
 * @param targets the targets to try, first one first
 */
public record Route(String requested, List<Target> targets) {

	public Target primary() {
		return this.targets.get(0);
	}

}
