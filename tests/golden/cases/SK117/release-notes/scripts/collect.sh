#!/bin/sh
gh pr list --state merged
