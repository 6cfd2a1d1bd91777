package dev.junction.messaging.db;

import java.time.Duration;

import dev.junction.database.DatabaseUrl;
import dev.junction.database.Notifications;
import io.r2dbc.spi.ConnectionFactory;

import org.springframework.boot.flyway.autoconfigure.FlywayProperties;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * The database through Spring Boot's R2DBC pool ({@code spring.r2dbc.*}), migrated first
 * by Boot's Flyway ({@code spring.flyway.*}, vendor folders under {@code db/migration});
 * the connections are described by {@link DatabaseConnectionDetails}.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	/**
	 * How often an idle listening connection is checked, so a half-open one is replaced.
	 */
	static final Duration LISTENER_CHECK_INTERVAL = Duration.ofSeconds(15);

	@Bean
	DatabaseConnectionDetails databaseConnectionDetails(R2dbcProperties r2dbc, FlywayProperties flyway) {
		return new DatabaseConnectionDetails(r2dbc, flyway);
	}

	@Bean
	DatabaseUrl database(DatabaseConnectionDetails details) {
		return details.database();
	}

	@Bean
	Notifications notifications(DatabaseConnectionDetails details) {
		DatabaseUrl database = details.database();
		return database.postgres() ? Notifications.postgres(database.postgresConnections(
				DatabaseConnectionDetails.LISTENER_APPLICATION_NAME, details.connectTimeout()), LISTENER_CHECK_INTERVAL)
				: Notifications.none();
	}

	/** Used once Flyway has migrated the schema. */
	@Bean
	@DependsOnDatabaseInitialization
	DatabaseClient databaseClient(ConnectionFactory connectionFactory) {
		return DatabaseClient.builder()
			.connectionFactory(connectionFactory)
			.bindMarkers(BindMarkersFactory.indexed("$", 1))
			.build();
	}

	@Bean
	TransactionalOperator transactionalOperator(ReactiveTransactionManager transactionManager) {
		return TransactionalOperator.create(transactionManager);
	}

}
