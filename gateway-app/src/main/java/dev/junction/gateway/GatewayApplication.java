package dev.junction.gateway;

import dev.junction.netty.NettyServerConfiguration;
import dev.junction.redis.RedisConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** The Junction gateway: an OpenAI-compatible API in front of LLM providers. */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({ NettyServerConfiguration.class, RedisConfiguration.class })
public class GatewayApplication {

	public static void main(String[] args) {
		// Spring AI's streaming providers drain a blocking SDK stream on Reactor's bounded
		// elastic scheduler, one thread per live stream; its default (10 per core) would cap
		// concurrent streams far below a provider's configured concurrency.
		if (System.getProperty("reactor.schedulers.defaultBoundedElasticSize") == null) {
			System.setProperty("reactor.schedulers.defaultBoundedElasticSize", "512");
		}
		SpringApplication.run(GatewayApplication.class, args);
	}

}
