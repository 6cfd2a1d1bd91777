package dev.junction.gateway.warmup;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link ExitAfterStart}, when {@code junction.gateway.warm-up.then-exit} is true, with
 * or without a warm-up model.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(WarmUpProperties.PREFIX + ".then-exit")
public class ExitAfterStartConfiguration {

	@Bean
	ExitAfterStart exitAfterStart(ConfigurableApplicationContext context) {
		return new ExitAfterStart(context);
	}

}
