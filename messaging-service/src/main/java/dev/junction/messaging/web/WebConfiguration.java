package dev.junction.messaging.web;

import dev.junction.messaging.apikey.CallerArgumentResolver;
import dev.junction.messaging.common.MessagingProperties;
import dev.junction.netty.HttpServerLimits;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;

/**
 * WebFlux wiring: codec buffer sized to the body limit, the {@code Caller} argument, the
 * server's read timeout on request bodies, and JSON strings without the NUL character.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebFluxConfigurer {

	private final MessagingProperties properties;

	WebConfiguration(MessagingProperties properties) {
		this.properties = properties;
	}

	@Override
	public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
		configurer.defaultCodecs()
			.maxInMemorySize((int) Math.min(Integer.MAX_VALUE, this.properties.http().maxBodySize().toBytes()));
	}

	/**
	 * A request body that stops arriving for {@code junction.messaging.http.read-timeout}
	 * is answered 408.
	 */
	@Bean
	static HttpServerLimits httpServerLimits(MessagingProperties properties) {
		return HttpServerLimits.DEFAULTS.withReadTimeout(properties.http().readTimeout());
	}

	@Bean
	JsonMapperBuilderCustomizer nulFreeStrings() {
		return (builder) -> builder.addModule(NulFreeStrings.module());
	}

	@Override
	public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
		configurer.addCustomResolver(new CallerArgumentResolver());
	}

}
