package dev.junction.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis is wired only when configured, starts without Redis answering, and says so in
 * health.
 */
class RedisConfigurationTests {

	private final ApplicationContextRunner contexts = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withUserConfiguration(RedisConfiguration.class);

	@Test
	void withoutRedisConfiguredThereIsNoConnectionAndNoIndicator() {
		this.contexts.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(RedisConnector.class);
			assertThat(context).doesNotHaveBean("redisHealthIndicator");
		});
	}

	@Test
	void startsWithTheConfiguredRedisAwayAndReportsItDegraded() {
		this.contexts.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:1", "spring.data.redis.timeout=200ms")
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisConnector.class);
				ReactiveHealthIndicator health = context.getBean("redisHealthIndicator", ReactiveHealthIndicator.class);
				StepVerifier.create(health.health()).assertNext((result) -> {
					assertThat(result.getStatus()).isEqualTo(RedisHealthIndicator.DEGRADED);
					assertThat(result.getDetails()).containsKey("error");
				}).expectComplete().verify(Duration.ofSeconds(10));
			});
	}

	@Test
	void hostAndPortConfigureRedisToo() {
		this.contexts.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1")
			.run((context) -> assertThat(context).hasSingleBean(RedisConnector.class));
	}

	@Test
	void refusesRedisClusterNamingTheSettingsItTakes() {
		this.contexts
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.cluster.nodes=127.0.0.1:1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Redis Cluster is not supported")
				.hasMessageContaining("spring.data.redis.url"));
	}

}
