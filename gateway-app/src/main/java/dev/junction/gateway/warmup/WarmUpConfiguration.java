package dev.junction.gateway.warmup;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.routing.ModelRouter;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The warm-up, when {@code junction.gateway.warm-up.model} is set (blank: off): a model
 * that does not route is a start-up failure, not a warm-up of error answers.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = WarmUpProperties.PREFIX, name = "model")
public class WarmUpConfiguration {

	@Bean
	WarmUp warmUp(WarmUpProperties properties, ModelRouter router, Environment environment, ObjectMapper mapper) {
		String model = properties.model();
		try {
			if (!model.isBlank()) {
				router.resolve(model);
			}
		}
		catch (InvalidRequestException ex) {
			throw new IllegalStateException(WarmUpProperties.PREFIX + ".model: '" + model
					+ "' is neither a configured alias nor <provider>/<model> with a configured provider");
		}
		return new WarmUp(properties, environment, mapper);
	}

}
