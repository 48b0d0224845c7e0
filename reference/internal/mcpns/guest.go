package mcpns

import (
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Node kinds of a guest namespace descriptor.
const (
	NodeObject = "object"
	NodeCall   = "call"
)

// A Descriptor describes the MCP namespace to the guest controller, which
// turns it into the frozen MCP global: every call node becomes an async
// function that sends a namespace bridge request with its path.
type Descriptor struct {
	ID         string `json:"id"`
	GlobalName string `json:"globalName"`
	Root       *Node  `json:"root"`
}

// A Node is an object node (Kind NodeObject, with Members) or a call node
// (Kind NodeCall, with Path).
type Node struct {
	Kind    string
	Path    string
	Members []Member
}

// A Member is one named member of an object node. Members are ordered:
// the guest defines the properties in this order.
type Member struct {
	Name string
	Node *Node
}

// MarshalJSON writes {"kind":"object","members":{...}} with the members in
// order, or {"kind":"call","path":"..."}.
func (n *Node) MarshalJSON() ([]byte, error) {
	v := n.value()
	return v.AppendJSON(nil), nil
}

func (n *Node) value() jsjson.Value {
	if n.Kind == NodeCall {
		return jsonObject("kind", jsonString(NodeCall), "path", jsonString(n.Path))
	}
	members := jsonObject()
	for _, m := range n.Members {
		members.Obj = append(members.Obj, jsjson.Member{Key: m.Name, Value: m.Node.value()})
	}
	return jsonObject("kind", jsonString(NodeObject), "members", members)
}

// Guest returns the guest descriptor of the namespace, a *[Descriptor]:
// {"id":"mcp","globalName":"MCP","root":{...}}. The root holds the $api
// call node (path "$api"), then one object node per server in server
// order. A server node holds its $api call node (path "<server>.$api"),
// its top-level tools sorted by method, then its groups (prompts,
// resources) in code point order, each an object node with its call nodes
// sorted by method: the order of the declaration files. Call paths are
// "<server>.<method>". Without a visible server the root has no member,
// so MCP is an empty frozen object (CM-10.5).
func (m *Model) Guest() any {
	root := &Node{Kind: NodeObject}
	if len(m.Servers) > 0 {
		root.Members = append(root.Members, Member{OpAPI, call(OpAPI)})
	}
	for _, s := range m.Servers {
		srv := &Node{Kind: NodeObject, Members: []Member{{OpAPI, call(s.Identifier + "." + OpAPI)}}}
		top, groups := declarationOrder(s.Entries)
		for _, e := range top {
			srv.Members = append(srv.Members, Member{e.Method, call(s.Identifier + "." + e.Method)})
		}
		for _, g := range groups {
			grp := &Node{Kind: NodeObject}
			for _, e := range g.entries {
				grp.Members = append(grp.Members, Member{e.Path[len(e.Path)-1], call(s.Identifier + "." + strings.Join(e.Path, "."))})
			}
			srv.Members = append(srv.Members, Member{g.name, grp})
		}
		root.Members = append(root.Members, Member{s.Identifier, srv})
	}
	return &Descriptor{ID: NamespaceID, GlobalName: GlobalName, Root: root}
}

func call(path string) *Node { return &Node{Kind: NodeCall, Path: path} }
