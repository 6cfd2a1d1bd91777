package dev.junction.gateway.resilience;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.resilience4j.common.circuitbreaker.configuration.CircuitBreakerConfigCustomizer;
import io.github.resilience4j.common.circuitbreaker.configuration.CommonCircuitBreakerConfigurationProperties;
import io.github.resilience4j.common.retry.configuration.CommonRetryConfigurationProperties;
import io.github.resilience4j.common.retry.configuration.RetryConfigCustomizer;

import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Registers Resilience4j's own customizer hooks ({@link RetryConfigCustomizer},
 * {@link CircuitBreakerConfigCustomizer}) for every retry and circuit breaker
 * configuration Resilience4j builds from properties, shared ({@code configs.<name>}) or
 * per instance ({@code instances.<name>}), so that {@link GatewayRules} hold under any of
 * them: a provider's own settings change the numbers, never what counts as a provider
 * failure.
 */
public final class GatewayRulesRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

	private static final String RETRY = "resilience4j.retry";

	private static final String CIRCUIT_BREAKER = "resilience4j.circuitbreaker";

	private Binder binder;

	@Override
	public void setEnvironment(Environment environment) {
		this.binder = Binder.get(environment);
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		for (String name : names(RETRY, CommonRetryConfigurationProperties.InstanceProperties.class)) {
			registry.registerBeanDefinition("junctionRetryRules:" + name,
					BeanDefinitionBuilder
						.genericBeanDefinition(RetryConfigCustomizer.class,
								() -> RetryConfigCustomizer.of(name, GatewayRules::retry))
						.getBeanDefinition());
		}
		for (String name : names(CIRCUIT_BREAKER,
				CommonCircuitBreakerConfigurationProperties.InstanceProperties.class)) {
			registry.registerBeanDefinition("junctionCircuitBreakerRules:" + name,
					BeanDefinitionBuilder
						.genericBeanDefinition(CircuitBreakerConfigCustomizer.class,
								() -> CircuitBreakerConfigCustomizer.of(name, GatewayRules::circuitBreaker))
						.getBeanDefinition());
		}
	}

	/**
	 * The names of the configs and instances under {@code prefix}, and {@code default}.
	 */
	private <T> Set<String> names(String prefix, Class<T> type) {
		Set<String> names = new TreeSet<>(Set.of("default"));
		for (String group : new String[] { ".configs", ".instances" }) {
			names
				.addAll(this.binder.bind(prefix + group, Bindable.mapOf(String.class, type)).orElse(Map.of()).keySet());
		}
		return names;
	}

}
