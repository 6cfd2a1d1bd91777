package dev.junction.netty;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.DefaultCorsProcessor;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;

/**
 * CORS for the WebFlux services, with Spring's {@link CorsWebFilter}: every service reads
 * the same properties under its own prefix (the keys of Boot's
 * {@code management.endpoints.web.cors.*}), applies them to every path, and refuses a
 * request from an origin, or with a method or headers, that is not allowed in its own
 * error shape.
 */
public final class CrossOrigin {

	private CrossOrigin() {
	}

	/** The filter; a refused request fails with the exception {@code rejection} makes. */
	public static CorsWebFilter filter(String prefix, Settings settings, Supplier<RuntimeException> rejection) {
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration("/**", configuration(prefix, settings));
		return new CorsWebFilter(source, new DefaultCorsProcessor() {

			@Override
			protected void rejectRequest(ServerHttpResponse response) {
				throw rejection.get();
			}

		});
	}

	/**
	 * Spring's configuration of the settings; fails naming the property it cannot accept.
	 */
	static CorsConfiguration configuration(String prefix, Settings settings) {
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOrigins(settings.allowedOrigins());
		configuration.setAllowedOriginPatterns(settings.allowedOriginPatterns());
		configuration.setAllowedMethods(settings.allowedMethods());
		configuration.setAllowedHeaders(settings.allowedHeaders());
		configuration.setExposedHeaders(settings.exposedHeaders());
		configuration.setAllowCredentials(settings.allowCredentials());
		configuration.setMaxAge(settings.maxAge());
		try {
			configuration.validateAllowCredentials();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(prefix + ".allow-credentials=true needs explicit " + prefix
					+ ".allowed-origins (or allowed-origin-patterns), not '*'", ex);
		}
		return configuration;
	}

	/** A service's CORS properties. */
	public interface Settings {

		/**
		 * Origins allowed to call ({@code https://app.example.com}), or {@code *} for
		 * any.
		 */
		@Nullable List<String> allowedOrigins();

		/** Origin patterns ({@code https://*.example.com}). */
		@Nullable List<String> allowedOriginPatterns();

		/** Methods a cross-origin request may use. */
		List<String> allowedMethods();

		/** Request headers a cross-origin request may send ({@code *}: any). */
		List<String> allowedHeaders();

		/** Response headers a browser script may read. */
		List<String> exposedHeaders();

		/**
		 * Whether browsers may send cookies and HTTP authentication (not with {@code *}
		 * origins).
		 */
		boolean allowCredentials();

		/** How long a browser may cache a preflight answer. */
		Duration maxAge();

	}

	/**
	 * Matches when {@code <prefix>.allowed-origins} or
	 * {@code <prefix>.allowed-origin-patterns} lists anything.
	 */
	public abstract static class OriginsConfigured extends SpringBootCondition {

		private final String prefix;

		protected OriginsConfigured(String prefix) {
			this.prefix = prefix;
		}

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Binder binder = Binder.get(context.getEnvironment());
			for (String name : List.of("allowed-origins", "allowed-origin-patterns")) {
				String property = this.prefix + "." + name;
				if (!binder.bind(property, Bindable.listOf(String.class)).orElse(List.of()).isEmpty()) {
					return ConditionOutcome.match(property + " is set");
				}
			}
			return ConditionOutcome.noMatch("no CORS origins under " + this.prefix);
		}

	}

}
