package dev.junction.gateway.config;

import java.time.Duration;

import dev.junction.gateway.config.GatewayProperties.Provider;
import dev.junction.gateway.provider.ProviderType;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderFactoryTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final ProviderFactory factory = new ProviderFactory(new JsonMapper(), this.environment);

	@Test
	void callsTimeOutAfterTwoMinutesByDefault() {
		assertThat(this.factory.timeout("slow", Provider.ofType(ProviderType.OPENAI))).isEqualTo(Duration.ofSeconds(120));
	}

	@Test
	void deprecatedTimeLimiterSettingsStillSetTheTimeoutOfProvidersWithoutOne() {
		this.environment.setProperty("resilience4j.timelimiter.configs.default.timeout-duration", "30s");
		this.environment.setProperty("resilience4j.timelimiter.instances.slow.timeout-duration", "2s");
		assertThat(this.factory.timeout("slow", Provider.ofType(ProviderType.OPENAI))).isEqualTo(Duration.ofSeconds(2));
		assertThat(this.factory.timeout("other", Provider.ofType(ProviderType.OPENAI)))
			.isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void theProvidersOwnTimeoutWinsOverDeprecatedTimeLimiterSettings() {
		this.environment.setProperty("resilience4j.timelimiter.instances.slow.timeout-duration", "2s");
		Provider provider = new Provider(ProviderType.OPENAI, null, null, Duration.ofMillis(500), null, null, null,
				null, null, null, null, null, null, null);
		assertThat(this.factory.timeout("slow", provider)).isEqualTo(Duration.ofMillis(500));
	}

}
