package dev.junction.messaging.event;

/** The event types the service emits. */
public final class EventTypes {

	public static final String INSTANCE_CREATED = "instance.created";

	public static final String INSTANCE_UPDATED = "instance.updated";

	public static final String INSTANCE_DELETED = "instance.deleted";

	/**
	 * Prefix of status changes: {@code instance.connected},
	 * {@code instance.disconnected}...
	 */
	public static final String INSTANCE_STATUS_PREFIX = "instance.";

	public static final String CHAT_CREATED = "chat.created";

	public static final String CHAT_UPDATED = "chat.updated";

	public static final String MESSAGE_SENT = "message.sent";

	public static final String MESSAGE_RECEIVED = "message.received";

	public static final String MESSAGE_STATUS_CHANGED = "message.status_changed";

	private EventTypes() {
	}

}
