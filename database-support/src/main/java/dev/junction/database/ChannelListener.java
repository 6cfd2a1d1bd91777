package dev.junction.database;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import org.springframework.context.SmartLifecycle;

/**
 * Listens to one PostgreSQL channel while the application runs (nothing on H2), from
 * before the web server starts until after it stops.
 */
public abstract class ChannelListener implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(ChannelListener.class);

	private final Notifications notifications;

	private final String channel;

	private volatile @Nullable Disposable subscription;

	protected ChannelListener(Notifications notifications, String channel) {
		this.notifications = notifications;
		this.channel = channel;
	}

	/**
	 * What to do with {@code signals}: {@link Notifications#CONNECTED} after every
	 * (re)connection, then the payloads. Errors must not reach the result.
	 */
	protected abstract Flux<?> handle(Flux<String> signals);

	/**
	 * Called when the connection is lost: notifications may be missed until the next
	 * CONNECTED.
	 */
	protected void lost(Throwable ex) {
	}

	@Override
	public void start() {
		if (this.notifications.shared()) {
			this.subscription = handle(this.notifications.listen(this.channel, this::lost)).subscribe(null,
					(ex) -> logger.error("Stopped listening to {}", this.channel, ex));
		}
	}

	@Override
	public void stop() {
		Disposable current = this.subscription;
		if (current != null) {
			current.dispose();
		}
		this.subscription = null;
	}

	@Override
	public boolean isRunning() {
		return this.subscription != null;
	}

	/** Starts before the web server, stops after it. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 2048;
	}

}
