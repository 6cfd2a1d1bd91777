package dev.junction.gateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.provider.ProviderType;
import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

class GatewayPropertiesTests {

	@Test
	void toStringShowsNoKeyOrPassword() {
		GatewayProperties.Provider provider = new GatewayProperties.Provider(ProviderType.OPENAI, null,
				List.of(new GatewayProperties.Key("sk-provider-secret", 1, null)), null, null, null, null, null, null,
				null, null, null, null, null, null, null);
		GatewayProperties.ProviderDefaults defaults = new GatewayProperties.ProviderDefaults(null, null,
				List.of(new GatewayProperties.Key("sk-default-secret", 1, null)), null, Duration.ofSeconds(5), 1000,
				null, null, 1000, 1000, Duration.ofSeconds(30), true, Duration.ofSeconds(30), Duration.ofSeconds(30),
				null, null);
		GatewayProperties properties = new GatewayProperties(Map.of("p", provider), defaults, Map.of(),
				new GatewayProperties.Auth(List.of("gateway-secret"), List.of("admin-secret")),
				new GatewayProperties.Http(DataSize.ofMegabytes(1), Duration.ofSeconds(30)),
				new GatewayProperties.RateLimit(0, 0, Duration.ofMinutes(1), 1, true),
				new GatewayProperties.Cache(false, Duration.ofMinutes(5), 10, null));
		assertThat(properties.toString()).doesNotContain("secret").contains("keys=1");
	}

}
