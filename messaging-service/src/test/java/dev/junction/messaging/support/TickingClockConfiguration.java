package dev.junction.messaging.support;

import java.time.Clock;
import java.time.Duration;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * A clock that moves in whole seconds, so rows created close together share a timestamp
 * and every list in the tests exercises the tie-break on id.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TickingClockConfiguration {

	@Bean
	@Primary
	Clock tickingClock() {
		return Clock.tick(Clock.systemUTC(), Duration.ofSeconds(1));
	}

}
