package dev.junction.messaging;

import java.util.Arrays;

import dev.junction.messaging.seed.SeedCommand;
import dev.junction.netty.NettyServerConfiguration;
import dev.junction.redis.RedisConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * Reactive messaging API: instances, chats, messages, events, webhooks and API keys under
 * {@code /api/v2}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({ NettyServerConfiguration.class, RedisConfiguration.class })
public class MessagingApplication {

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(MessagingApplication.class);
		if (Arrays.stream(args).anyMatch(SeedCommand::isSeedArgument)) {
			// The seeding command fills the database and exits: no web server.
			application.setWebApplicationType(WebApplicationType.NONE);
		}
		application.run(args);
	}

}
