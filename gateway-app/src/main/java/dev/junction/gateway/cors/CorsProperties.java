package dev.junction.gateway.cors;

import java.time.Duration;
import java.util.List;

import dev.junction.netty.CrossOrigin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Cross-origin requests from browsers to the gateway. Off unless {@code allowed-origins}
 * or {@code allowed-origin-patterns} is set; the same keys as Spring Boot's
 * {@code management.endpoints.web.cors.*}.
 *
 * @param allowedOrigins origins allowed to call ({@code https://app.example.com}), or
 * {@code *} for any
 * @param allowedOriginPatterns origin patterns ({@code https://*.example.com})
 * @param allowedMethods methods a cross-origin request may use
 * @param allowedHeaders request headers a cross-origin request may send ({@code *}: any)
 * @param exposedHeaders response headers a browser script may read
 * @param allowCredentials whether browsers may send cookies and HTTP authentication (not
 * allowed with {@code *} origins)
 * @param maxAge how long a browser may cache a preflight answer
 */
@ConfigurationProperties(CorsProperties.PREFIX)
public record CorsProperties(@Nullable List<String> allowedOrigins, @Nullable List<String> allowedOriginPatterns,
		@DefaultValue( {
				"GET", "HEAD", "POST" }) List<String> allowedMethods,
		@DefaultValue("*") List<String> allowedHeaders,
		@DefaultValue({ "X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
				"Retry-After", "X-Junction-Cache", "Server-Timing" }) List<String> exposedHeaders,
		@DefaultValue("false") boolean allowCredentials,
		@DefaultValue("30m") Duration maxAge) implements CrossOrigin.Settings{

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.cors";

}
