package dev.junction.gateway.cors;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.cors.reactive.CorsWebFilter;

import static org.assertj.core.api.Assertions.assertThat;

/** The CORS filter exists only when allowed origins or origin patterns are configured. */
class CorsFilterConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(Properties.class, CorsFilterConfiguration.class);

	@Test
	void withoutOriginsMakesNoFilter() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CorsWebFilter.class);
		});
	}

	@Test
	void withOnlyOtherCorsSettingsMakesNoFilter() {
		this.runner
			.withPropertyValues("junction.gateway.cors.allowed-methods=GET,PUT",
					"junction.gateway.cors.allow-credentials=true")
			.run((context) -> assertThat(context).doesNotHaveBean(CorsWebFilter.class));
	}

	@Test
	void withAllowedOriginsMakesTheFilter() {
		this.runner.withPropertyValues("junction.gateway.cors.allowed-origins=https://app.example.com")
			.run((context) -> assertThat(context).hasSingleBean(CorsWebFilter.class));
	}

	@Test
	void withAllowedOriginPatternsMakesTheFilter() {
		this.runner.withPropertyValues("junction.gateway.cors.allowed-origin-patterns=https://*.example.com")
			.run((context) -> assertThat(context).hasSingleBean(CorsWebFilter.class));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(CorsProperties.class)
	static class Properties {

	}

}
