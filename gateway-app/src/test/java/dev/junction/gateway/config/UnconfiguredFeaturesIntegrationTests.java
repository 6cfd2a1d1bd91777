package dev.junction.gateway.config;

import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.calculator.CalculatorClient;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.redis.RedisConnector;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway with one OpenAI provider and nothing else configured makes none of the beans
 * of the features it does not use; configured, they are there.
 */
class UnconfiguredFeaturesIntegrationTests {

	private static final List<String> ONE_PROVIDER = List.of("junction.gateway.cache.enabled=false",
			"junction.gateway.providers.emu.type=openai",
			"junction.gateway.providers.emu.base-url=http://127.0.0.1:9/v1",
			"junction.gateway.providers.emu.keys[0].value=sk-test");

	@Test
	void oneProviderAloneMakesNoRedisCalculatorChannelJackson2OrUnusedResilienceBeans() {
		try (RunningGateway gateway = RunningGateway.start(ONE_PROVIDER)) {
			ConfigurableApplicationContext context = gateway.context();
			assertThat(context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
			assertThat(context.getBeanNamesForType(RedisConnector.class)).isEmpty();
			assertThat(context.getBeanFactory().containsSingleton("calculatorChannel")).isFalse();
			assertThat(context.getBeanNamesForType(com.fasterxml.jackson.databind.ObjectMapper.class)).isEmpty();
			assertThat(context.getBeanNamesForType(BulkheadRegistry.class)).isEmpty();
			assertThat(context.getBeanNamesForType(RateLimiterRegistry.class)).isEmpty();
			assertThat(context.getBeanNamesForType(TimeLimiterRegistry.class)).isEmpty();
			assertThat(context.getBeanNamesForType(CircuitBreakerRegistry.class)).hasSize(1);
			assertThat(context.getBeanNamesForType(RetryRegistry.class)).hasSize(1);
			assertThat(context.getBeanNamesForType(CalculatorClient.class)).hasSize(1);
		}
	}

	@Test
	void redisAndTheCalculatorConfiguredAreMadeAtStart() {
		List<String> properties = new ArrayList<>(ONE_PROVIDER);
		properties.add("spring.data.redis.url=redis://127.0.0.1:9");
		properties.add("junction.gateway.calculator.address=static://127.0.0.1:9");
		try (RunningGateway gateway = RunningGateway.start(properties)) {
			ConfigurableApplicationContext context = gateway.context();
			assertThat(context.getBeanNamesForType(RedisConnectionFactory.class)).hasSize(1);
			assertThat(context.getBeanNamesForType(RedisConnector.class)).hasSize(1);
			assertThat(context.getBeanFactory().containsSingleton("calculatorChannel")).isTrue();
		}
	}

	@Test
	void redisConfiguredUnderItsFormerNameIsMadeToo() {
		List<String> properties = new ArrayList<>(ONE_PROVIDER);
		properties.add("junction.redis.url=redis://127.0.0.1:9");
		try (RunningGateway gateway = RunningGateway.start(properties)) {
			assertThat(gateway.context().getBeanNamesForType(RedisConnector.class)).hasSize(1);
		}
	}

}
