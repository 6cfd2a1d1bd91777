package dev.junction.gateway;

import dev.junction.netty.NettyServerConfiguration;
import dev.junction.redis.RedisConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * The Junction gateway: an OpenAI-compatible API in front of LLM providers. Of
 * Resilience4j it uses the circuit breakers and retries; the rest of its
 * auto-configuration is left out.
 */
@SpringBootApplication(excludeName = {
		"io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadRefreshScopedRegistryAutoConfiguration",
		"io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadAutoConfiguration",
		"io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadMetricsAutoConfiguration",
		"io.github.resilience4j.springboot.bulkhead.autoconfigure.ThreadPoolBulkheadMetricsAutoConfiguration",
		"io.github.resilience4j.springboot.micrometer.autoconfigure.TimerAutoConfiguration",
		"io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterRefreshScopedRegistryAutoConfiguration",
		"io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterAutoConfiguration",
		"io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimiterMetricsAutoConfiguration",
		"io.github.resilience4j.springboot.ratelimiter.autoconfigure.RateLimitersHealthIndicatorAutoConfiguration",
		"io.github.resilience4j.springboot.scheduled.threadpool.autoconfigure.ContextAwareScheduledThreadPoolAutoConfiguration",
		"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterRefreshScopedRegistryAutoConfiguration",
		"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration",
		"io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterMetricsAutoConfiguration" })
@ConfigurationPropertiesScan
@Import({ NettyServerConfiguration.class, RedisConfiguration.class })
public class GatewayApplication {

	public static void main(String[] args) {
		// Spring AI's streaming providers drain a blocking SDK stream on Reactor's
		// bounded
		// elastic scheduler, one thread per live stream; its default (10 per core) would
		// cap
		// concurrent streams far below a provider's configured concurrency.
		if (System.getProperty("reactor.schedulers.defaultBoundedElasticSize") == null) {
			System.setProperty("reactor.schedulers.defaultBoundedElasticSize", "512");
		}
		SpringApplication.run(GatewayApplication.class, args);
	}

}
