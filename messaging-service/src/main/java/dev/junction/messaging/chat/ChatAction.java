package dev.junction.messaging.chat;

/** One-word changes to a chat: {@code POST /chats/{id}/{action}}. */
public enum ChatAction {

	ARCHIVE("archived = TRUE"), UNARCHIVE("archived = FALSE"), PIN("pinned = TRUE"), UNPIN("pinned = FALSE"),
	MUTE("muted = TRUE"), UNMUTE("muted = FALSE"), READ("unread_count = 0");

	private final String assignment;

	ChatAction(String assignment) {
		this.assignment = assignment;
	}

	/** The SQL assignment that applies this action. */
	String assignment() {
		return this.assignment;
	}

}
