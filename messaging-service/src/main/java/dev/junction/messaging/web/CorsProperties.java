package dev.junction.messaging.web;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Cross-origin requests from browsers. Off unless {@code allowed-origins} or
 * {@code allowed-origin-patterns} is set; the same keys as Spring Boot's
 * {@code management.endpoints.web.cors.*}.
 *
 * @param allowedOrigins origins allowed to call the API ({@code https://app.example.com}),
 * or {@code *} for any
 * @param allowedOriginPatterns origin patterns ({@code https://*.example.com})
 * @param allowedMethods methods a cross-origin request may use
 * @param allowedHeaders request headers a cross-origin request may send ({@code *}: any)
 * @param exposedHeaders response headers a browser script may read
 * @param allowCredentials whether browsers may send cookies and HTTP authentication
 * (not allowed with {@code *} origins)
 * @param maxAge how long a browser may cache a preflight answer
 */
@ConfigurationProperties(CorsProperties.PREFIX)
public record CorsProperties(@Nullable List<String> allowedOrigins, @Nullable List<String> allowedOriginPatterns,
		@DefaultValue({ "GET", "HEAD", "POST", "PATCH", "DELETE" }) List<String> allowedMethods,
		@DefaultValue("*") List<String> allowedHeaders,
		@DefaultValue({ "X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
				"Retry-After" }) List<String> exposedHeaders,
		@DefaultValue("false") boolean allowCredentials, @DefaultValue("30m") Duration maxAge) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging.cors";

	/** Spring's CORS configuration for these properties; fails naming the property it cannot accept. */
	public CorsConfiguration toCorsConfiguration() {
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOrigins(this.allowedOrigins);
		configuration.setAllowedOriginPatterns(this.allowedOriginPatterns);
		configuration.setAllowedMethods(this.allowedMethods);
		configuration.setAllowedHeaders(this.allowedHeaders);
		configuration.setExposedHeaders(this.exposedHeaders);
		configuration.setAllowCredentials(this.allowCredentials);
		configuration.setMaxAge(this.maxAge);
		try {
			configuration.validateAllowCredentials();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(PREFIX + ".allow-credentials=true needs explicit " + PREFIX
					+ ".allowed-origins (or allowed-origin-patterns), not '*'", ex);
		}
		return configuration;
	}

}
