package dev.junction.messaging.chat;

/** Kind of conversation. */
public enum ChatType {

	DIRECT, GROUP, CHANNEL

}
