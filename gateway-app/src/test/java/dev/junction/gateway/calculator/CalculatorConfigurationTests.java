package dev.junction.gateway.calculator;

import io.grpc.ConnectivityState;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.grpc.client.autoconfigure.GrpcClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The channel to calculator-service is made at start-up only when its address is
 * configured.
 */
class CalculatorConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, GrpcClientAutoConfiguration.class))
		.withUserConfiguration(Properties.class, CalculatorConfiguration.class)
		.withPropertyValues("spring.grpc.client.channel.calculator.target=static://127.0.0.1:1");

	@Test
	void withoutAnAddressMakesNoChannelUntilTheClientIsAskedFor() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeanFactory().containsSingleton("calculatorChannel")).isFalse();
			assertThat(context.getBeanFactory().containsSingleton("calculatorClient")).isFalse();
			assertThat(context).doesNotHaveBean("calculatorWarmUp");
			assertThat(context.getBean(CalculatorClient.class).address()).isEqualTo("static://127.0.0.1:50051");
			assertThat(context.getBeanFactory().containsSingleton("calculatorChannel")).isTrue();
		});
	}

	@Test
	void withAnAddressMakesTheChannelAtStartAndStartsConnecting() {
		this.runner.withPropertyValues("junction.gateway.calculator.address=static://127.0.0.1:1").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeanFactory().containsSingleton("calculatorChannel")).isTrue();
			assertThat(context.getBeanFactory().containsSingleton("calculatorClient")).isTrue();
			assertThat(context.getBean(CalculatorConfiguration.CalculatorChannel.class).channel().getState(false))
				.isNotEqualTo(ConnectivityState.IDLE);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(CalculatorProperties.class)
	static class Properties {

	}

}
