// Package fakemodel is a scripted OpenAI-compatible model provider for
// tests. It serves the Responses API (POST /v1/responses) and the Chat
// Completions API (POST /v1/chat/completions), streamed or not, on
// 127.0.0.1 with an httptest-style lifecycle ([NewServer], [Server.URL],
// [Server.Close]).
//
// The test plays the model turn by turn: [Server.Next] returns the next
// request of a conversation, normalized into a [Request] whatever API and
// mode the client used, and [Request.Respond] answers it with tool calls
// and/or a final text ([Reply]), rendered in the client's API and mode.
//
// # Conversations
//
// A conversation is identified by its key: the text of its first user
// message. Every request of an agent's session repeats the conversation so
// far, so all its turns share the key, and two concurrent sessions started
// with different prompts never mix. Requests nobody waits for (a sub-agent's
// turns, say) can be answered at once with [Server.SetFallback]; keys
// registered with [Server.Expect] are always queued for [Server.Next].
// [Server.SetKeyFunc] keys conversations another way.
//
// # Items
//
// [Request.Items] is the conversation in one shape for both APIs: messages
// are items of Type "message" with a Role and their Text (content parts
// joined with "\n"); a Responses "instructions" string becomes a leading
// "system" message; function calls and their outputs are items of Type
// "function_call" and "function_call_output" (from Chat Completions:
// assistant tool_calls and role "tool" messages). Items of other Responses
// types keep their Type and nothing else.
//
// # Replies
//
// A [Reply] becomes one response: its tool calls in order (parallel tool
// calls), then its text. Streams follow the providers' event shapes:
// Responses streams send response.created, response.in_progress, then per
// output item output_item.added, the argument or text deltas and their done
// events, output_item.done, and finally response.completed with the full
// response; Chat Completions streams send chat.completion.chunk deltas
// (role, content pieces, tool_calls by index), a last chunk with the
// finish_reason, a usage chunk when stream_options.include_usage is set, and
// "data: [DONE]". Arguments that are not valid JSON are sent as they are,
// so a test can play a model that emits broken arguments.
package fakemodel
