package dev.junction.mock.config;

import dev.junction.mock.routes.MockRoutes;
import dev.junction.mock.stats.MockStats;
import dev.junction.mock.stats.MockStatsMetrics;
import dev.junction.netty.AcceptBacklog;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Wires the emulator into the Spring Boot application: its routes, its counters and their
 * meters, and a listening socket whose backlog is accepted at every turn of the event
 * loop (a load test's burst of new connections is answered, not left waiting to be
 * accepted).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MockProperties.class)
public class MockConfiguration {

	@Bean
	MockStats mockStats() {
		return new MockStats();
	}

	@Bean
	RouterFunction<ServerResponse> mockRoutes(MockProperties properties, MockStats stats) {
		return MockRoutes.create(properties, stats);
	}

	@Bean
	MockStatsMetrics mockStatsMetrics(MockStats stats) {
		return new MockStatsMetrics(stats);
	}

	@Bean
	NettyServerCustomizer acceptBacklog() {
		return AcceptBacklog.customizer();
	}

}
