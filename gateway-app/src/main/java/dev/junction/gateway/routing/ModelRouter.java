package dev.junction.gateway.routing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a requested model: a configured alias first, otherwise
 * {@code <provider>/<model>} with a configured provider name.
 */
public final class ModelRouter {

	private final Set<String> providers;

	private final Map<String, Route> aliases = new LinkedHashMap<>();

	/**
	 * @param providers the configured provider names
	 * @param aliases each alias's targets, {@code provider/model} in order
	 * @param property where the aliases are configured, named in start-up failures
	 */
	public ModelRouter(Set<String> providers, Map<String, List<String>> aliases, String property) {
		this.providers = Set.copyOf(providers);
		aliases.forEach((alias, configured) -> {
			if (configured == null || configured.isEmpty()) {
				throw new IllegalStateException(
						property + "." + alias + ".targets must list at least one provider/model");
			}
			List<Target> targets = configured.stream().map((target) -> {
				Target parsed = parse(target);
				if (parsed == null) {
					throw new IllegalStateException(property + "." + alias + ".targets: '" + target
							+ "' is not <provider>/<model> with a configured provider " + this.providers);
				}
				return parsed;
			}).toList();
			this.aliases.put(alias, new Route(alias, targets));
		});
	}

	/** The route for a requested model, or a 404 {@code model_not_found}. */
	public Route resolve(String model) {
		Route alias = this.aliases.get(model);
		if (alias != null) {
			return alias;
		}
		Target target = parse(model);
		if (target == null) {
			throw InvalidRequestException.modelNotFound(model);
		}
		return new Route(model, List.of(target));
	}

	/**
	 * A route through the given models in order, for requests that name their own
	 * fallbacks.
	 */
	public Route resolveAll(String requested, List<String> models) {
		List<Target> targets = models.stream().flatMap((model) -> resolve(model).targets().stream()).toList();
		return new Route(requested, targets);
	}

	/** The configured aliases. */
	public Map<String, Route> aliases() {
		return Map.copyOf(this.aliases);
	}

	private @Nullable Target parse(String model) {
		int slash = model.indexOf('/');
		if (slash <= 0 || slash == model.length() - 1) {
			return null;
		}
		String provider = model.substring(0, slash);
		return this.providers.contains(provider) ? new Target(provider, model.substring(slash + 1)) : null;
	}

}
