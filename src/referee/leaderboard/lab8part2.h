/* The course header of Lab 8 Parts 2 and 3, as the referee supplies it to
 * a submission that lacks its own copy: the functions the handout has every
 * program declare. A submission that brings its own lab8part2.h compiles
 * with that one. */
#ifndef LAB8PART2_H
#define LAB8PART2_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

void printBoard(char board[][26], int n);
bool positionInBounds(int n, int row, int col);
bool checkLegalInDirection(char board[][26], int n, int row, int col,
                           char colour, int deltaRow, int deltaCol);
int makeMove(const char board[26][26], int n, char turn, int *row, int *col);

#endif
