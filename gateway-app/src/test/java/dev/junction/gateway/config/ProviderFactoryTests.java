package dev.junction.gateway.config;

import java.time.Duration;
import java.util.Map;

import dev.junction.gateway.config.GatewayProperties.Provider;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderType;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ProviderFactoryTests {

	private final MockEnvironment environment = new MockEnvironment();

	private final ProviderFactory factory = new ProviderFactory(new JsonMapper(), this.environment);

	@Test
	void callsTimeOutAfterTwoMinutesByDefault() {
		assertThat(this.factory.timeout("slow", Provider.ofType(ProviderType.OPENAI)))
			.isEqualTo(Duration.ofSeconds(120));
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
				null, null, null, null, null, null, null, null, null);
		assertThat(this.factory.timeout("slow", provider)).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void passesResponsesThroughToOpenAiItselfAndTranslatesThemForOtherCompatibleServersUnlessConfigured() {
		ProviderRegistry registry = registry(Map.of("junction.gateway.providers.openai.type", "openai",
				"junction.gateway.providers.local.type", "openai", "junction.gateway.providers.local.base-url",
				"http://127.0.0.1:1/v1", "junction.gateway.providers.served.type", "openai",
				"junction.gateway.providers.served.base-url", "http://127.0.0.1:1/v1",
				"junction.gateway.providers.served.native-responses", "true", "junction.gateway.providers.refused.type",
				"openai", "junction.gateway.providers.refused.native-responses", "false"));
		assertThat(registry.get("openai").provider().speaks(ClientApi.RESPONSES)).isTrue();
		assertThat(registry.get("local").provider().speaks(ClientApi.RESPONSES)).isFalse();
		assertThat(registry.get("served").provider().speaks(ClientApi.RESPONSES)).isTrue();
		assertThat(registry.get("refused").provider().speaks(ClientApi.RESPONSES)).isFalse();
		assertThat(registry.get("local").provider().speaks(ClientApi.EMBEDDINGS)).isTrue();
	}

	@Test
	void refusesNativeResponsesOnAProviderThatIsNotOpenAiCompatible() {
		assertThatIllegalStateException()
			.isThrownBy(() -> registry(Map.of("junction.gateway.providers.local.type", "mock",
					"junction.gateway.providers.local.native-responses", "true")))
			.withMessage("junction.gateway.providers.local.native-responses applies to openai providers only");
	}

	private ProviderRegistry registry(Map<String, String> properties) {
		GatewayProperties bound = new Binder(new MapConfigurationPropertySource(properties))
			.bindOrCreate(GatewayProperties.PREFIX, GatewayProperties.class);
		return this.factory.create(bound);
	}

}
